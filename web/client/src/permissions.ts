// What the local user may do on the map, from the host's interaction mode
// (none | token | all), the pause and the page's run mode.
import type { Interaction, Token } from "./types";

export interface Who {
  name: string;
  display: boolean;
  /** A spectator watches: no drags, no doors (the server refuses them too). */
  spectator?: boolean;
  /**
   * The seat this page holds, when the page knows of seats (ui/seat.ts):
   * its character's id and the tokens it plays (its own and those the game
   * master gave it). null: no seat. Absent: a page that knows nothing of
   * seats, which falls back to the token carrying the player's name.
   */
  seat?: { id: string; tokens: readonly string[] } | null;
}

/**
 * Which tokens this player may drag. `none`: none. `all`: every token the
 * page shows. `token`: the player's own — player tokens (`player: true`);
 * when one of them carries the player's name, only that one. The contract
 * has no token-to-client link, so the name is the only tie there is.
 * With seats (who.seat present) token mode is the server's rule: the
 * seat's character's tokens and those it controls, nothing without a seat.
 * Nothing on a display or for a spectator, nothing while the game is paused.
 */
export function mayDrag(t: Token, who: Who | null, interaction: Interaction, paused: boolean, all: Iterable<Token>): boolean {
  if (!who || who.display || who.spectator || paused) return false;
  switch (interaction) {
    case "none":
      return false;
    case "all":
      return true;
    case "token": {
      if (who.seat !== undefined) return !!who.seat && (t.entityId === who.seat.id || who.seat.tokens.includes(t.id));
      if (t.player !== true) return false;
      const name = who.name.trim().toLowerCase();
      const mine = [...all].filter((o) => o.player === true && (o.name ?? "").trim().toLowerCase() === name);
      return mine.length === 0 || mine.some((o) => o.id === t.id);
    }
  }
}

/** Doors: any mode but none, not on a display, not while paused. */
export function mayUseDoors(who: Who | null, interaction: Interaction, paused: boolean): boolean {
  return !!who && !who.display && !who.spectator && interaction !== "none" && !paused;
}

/**
 * Whose sight a page shows, by the host's screen setting sharedVision:
 *
 * - "always" (the default): the party's, every friendly or player token;
 * - "never": the tokens the player plays (ownToken); with none, the
 *   party's;
 * - "partial": outside combat the party's; in combat the party token whose
 *   turn it is (acting: its id, "" when the acting combatant has no token
 *   or is no party token's) and the player's own tokens, nothing else. So
 *   each player follows the one who acts, and always sees from their own.
 *
 * acting is null outside combat. Displays always show the party's.
 */
export function seesThrough(t: Token, who: Who | null, sharedVision: string | undefined, all: Iterable<Token>, acting: string | null = null): boolean {
  const party = (t.player === true || t.role === "friendly") && !!t.vision && t.vision.enabled !== false;
  if (!party || !who || who.display) return party;
  if (sharedVision === "partial") return acting === null || t.id === acting || ownToken(t, who, all) === true;
  if (sharedVision !== "never") return party;
  return ownToken(t, who, all) ?? true;
}

/**
 * Whether the player plays t: one of their seat's tokens, or, on a page
 * that knows no seat (or a seat with no token), the token carrying their
 * name. undefined when the player plays no token at all.
 */
function ownToken(t: Token, who: Who, all: Iterable<Token>): boolean | undefined {
  const seated = who.seat?.tokens ?? [];
  if (seated.length > 0) return seated.includes(t.id);
  const name = who.name.trim().toLowerCase();
  const mine = [...all].filter((o) => (o.name ?? "").trim().toLowerCase() === name && (o.player === true || o.role === "friendly"));
  return mine.length === 0 ? undefined : mine.some((o) => o.id === t.id);
}

/**
 * Whose ears a page hears the map's ambient sounds with: the tokens its
 * seat plays, or, on a page that knows no seat, the token carrying the
 * player's name; with neither (and on a display), the party's (player and
 * friendly tokens). Unlike sight, a token needs no vision to hear.
 */
export function hearsThrough(t: Token, who: Who | null, all: Iterable<Token>): boolean {
  const party = t.player === true || t.role === "friendly";
  if (!who || who.display) return party;
  const seated = who.seat?.tokens ?? [];
  if (seated.length > 0) return seated.includes(t.id);
  const name = who.name.trim().toLowerCase();
  const mine = [...all].filter((o) => (o.name ?? "").trim().toLowerCase() === name && (o.player === true || o.role === "friendly"));
  return mine.length === 0 ? party : mine.some((o) => o.id === t.id);
}
