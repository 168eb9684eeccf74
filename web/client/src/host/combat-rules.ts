// The Combat card's rules, apart from drawing (so Node tests them): what
// an effect has left, the card's state line and which buttons it allows,
// and what its small forms send.
import type { DeepPartial } from "./partial";
import type { StatusEffect, Game as FullGame, TurnSlot as FullTurnSlot } from "./types";

type Effect = DeepPartial<StatusEffect>;
type Game = DeepPartial<FullGame>;
type TurnSlot = DeepPartial<FullTurnSlot>;

const ROUNDS: Record<string, number> = { round: 1, rounds: 1, minute: 10, minutes: 10, hour: 600, hours: 600 };

/**
 * roundsLeft is what remains of an effect's duration as the game now
 * stands (the rule the server expires effects by, core/effects.go): an
 * effect of duration rounds applied at (roundStart, turnStart) ends when
 * the order comes back to that turn duration rounds later; one counted in
 * the target's or source's turns has turnsElapsed of them behind it.
 * Rounds begun count whole; null when it does not run out by itself.
 */
export function roundsLeft(e: Effect, g: Game | undefined): number | null {
  const per = ROUNDS[String(e.durationUnit || "round").toLowerCase()];
  if (!(e.duration != null && e.duration > 0) || !per) return null;
  const rounds = e.duration * per;
  const kind = String(e.durationType || "").toLowerCase();
  if (kind.endsWith("startnextturn") || kind.endsWith("endnextturn")) {
    return Math.max(0, rounds - (Number(e.data?.turnsElapsed) || 0));
  }
  if (!g?.started) return rounds;
  const end = Math.max(e.roundStart || 1, 1) + rounds;
  return Math.max(0, end - (g.round ?? 0) + ((g.turn ?? 0) < Math.max(e.turnStart || 1, 1) ? 1 : 0));
}

/** An effect's chip: its name and the rounds it has left. */
export function effectLabel(e: Effect, g: Game | undefined): string {
  const left = roundsLeft(e, g);
  return (e.name || "effect") + (left == null ? "" : ` (${left} round${left === 1 ? "" : "s"})`);
}

/** The card's state line; passed: the system passes turns (no initiative). */
export function combatStateText(g: Game, order: TurnSlot[], passed = false): string {
  const all = g.combatants ?? [];
  if (g.started) {
    const acting = all.find((c) => c.id === g.combatantId);
    if (passed) return `Round ${g.round}${acting ? ` · ${acting.name} acts` : ""} · ${(g.acted ?? []).length} of ${order.length} have acted`;
    return `Round ${g.round} · turn ${g.turn}${acting ? ` · ${acting.name} acts` : ""}`;
  }
  if (passed) return `No combat running. ${order.length} combatants take turns, passed from one to the next.`;
  return `No combat running. ${order.length} of ${all.length} combatants have rolled initiative.`;
}

/** Which combat buttons the game allows (by their data-combat): no going back where turns are passed. */
export function combatButtons(g: Game, order: TurnSlot[], passed = false): Record<string, boolean> {
  const on = !!g.started;
  return { start: !on && order.length > 0, previous: on && !passed, next: on, end: on };
}

/** Where turns are passed: a slot's state this round, and whether the turn may be passed to it. */
export function passState(s: TurnSlot, g: Game): { mark: "acting" | "acted" | "waiting"; canPass: boolean } {
  if (g.started && s.combatantId === g.combatantId) return { mark: "acting", canPass: false };
  if (s.combatantId && (g.acted ?? []).includes(s.combatantId)) return { mark: "acted", canPass: false };
  return { mark: "waiting", canPass: !!g.started };
}

/** Whether a slot of the turn order is the acting one. */
export const isActing = (s: TurnSlot, g: Game): boolean => !!g.started && s.initiativeId === g.initiativeId && s.combatantId === g.combatantId;

/** An initiative typed in: empty takes the combatant out of the order. */
export function initiativeValue(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

/** Hit points typed in for Damage or Heal: a positive number, else null. */
export function hitPointAmount(text: string): number | null {
  const n = Number(text);
  return n > 0 ? n : null;
}

/** The effect the field adds: its name, and a duration in rounds when one is given. */
export function effectBody(name: string, rounds: string): { name: string; duration?: number; durationUnit?: string } | null {
  const n = name.trim();
  if (!n) return null;
  const r = Number(rounds);
  return r > 0 ? { name: n, duration: r, durationUnit: "round" } : { name: n };
}

/** A combatant's health as the row shows it, under the system's label ("HP" in D&D 5e). */
export function hitPointText(hp: { hp: number; max: number | null; temp: number | null }, label = "HP"): string {
  return `${label} ${hp.hp}${hp.max != null ? `/${hp.max}` : ""}${hp.temp ? ` +${hp.temp}` : ""}`;
}

/** The names the system's conditions table gives (strings, or rows with a name). */
export function conditionNames(rows: unknown): string[] {
  if (!Array.isArray(rows)) return [];
  return rows
    .map((r) => {
      if (typeof r === "string") return r;
      const o = (r && typeof r === "object" ? r : {}) as { name?: unknown; label?: unknown; id?: unknown };
      const v = o.name || o.label || o.id;
      return typeof v === "string" ? v : "";
    })
    .filter(Boolean);
}
