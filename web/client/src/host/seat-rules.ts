// What the Seats card decides, apart from drawing it (so Node tests it):
// who may be given a seat, what a seat's row says, which tokens a seat's
// player may be allowed besides their own, and a client's role.
import type { DeepPartial } from "./partial";
import type { HostClient, HostSeatRow } from "./types";

type ClientRow = DeepPartial<HostClient>;
type Seat = DeepPartial<HostSeatRow>;

/** A table display, not a player's browser. */
export const isDisplay = (c: ClientRow): boolean => !!c.runMode && c.runMode !== "normal";

/** The clients a seat can be given to: player browsers, not displays nor spectators. */
export function givable<C extends ClientRow>(clients: C[]): C[] {
  return clients.filter((c) => !isDisplay(c) && c.role !== "spectator");
}

/** Who plays the seat, as its row says it. */
export function seatHolder(s: Seat): string {
  if (!s.taken) return "free";
  return (s.player || "taken") + (s.clients?.length ? "" : " (not connected)");
}

/** A client's name, or its channel. */
export const clientName = (c: ClientRow): string => c.name || `#${c.channel}`;

/** The client's role: display, or the role it has (player by default). */
export function roleOf(c: ClientRow): string {
  return isDisplay(c) ? "display" : c.role || "player";
}

/** The role the role button turns it into. */
export const otherRole = (role: string): "player" | "spectator" => (role === "spectator" ? "player" : "spectator");

/** The tokens a seat may be given besides its own character's. */
export function otherTokens<T extends { entityId: string }>(tokens: T[], seat: Seat): T[] {
  return tokens.filter((t) => t.entityId !== seat.id);
}

/** A seat's controls with one token ticked or unticked, in a stable order. */
export function withControl(controls: string[] | undefined, token: string, on: boolean): string[] {
  const now = new Set(controls ?? []);
  if (on) now.add(token);
  else now.delete(token);
  return [...now];
}

/** The summary of a seat's other tokens. */
export function controlsSummary(s: Seat): string {
  const n = (s.controls ?? []).length;
  return n ? `${n} other token${n === 1 ? "" : "s"}` : "Other tokens…";
}
