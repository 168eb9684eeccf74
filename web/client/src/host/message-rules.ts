// The Messages card's rules, apart from drawing (so Node tests them): who
// said a message, its line (with a roll's total, read by the player
// client's roll reader), and the names the game master may speak as.
import { readRoll } from "../table/dice";
import { tableRollText } from "../table/tableroll";
import type { DeepPartial } from "./partial";
import type { HostCampaign, Message as FullMessage } from "./types";

type CampaignView = DeepPartial<HostCampaign>;
type Message = DeepPartial<FullMessage>;

/**
 * Who said a message: the creature it was said as, with the player (the
 * message's source, a name) beside it; the game master when neither is
 * set (the console's own messages carry neither).
 */
export function speaker(m: Message): string {
  const source = typeof m.source === "string" ? m.source : "";
  if (m.creature) return source && source !== m.creature ? `${m.creature} (${source})` : m.creature;
  return source || "Game master";
}

/**
 * A player's text as they typed it: the server writes each "<" that would
 * open a tag as "&lt;" (core.playerText), so that no page renders it as
 * markup; the console shows the text, where it is text already.
 */
export function typedText(text: string): string {
  return text.replace(/&lt;(?=[A-Za-z/!?])/g, "<");
}

/** A message's text, and " → total" when it carries a roll with one. */
export function messageText(m: Message): string {
  if (m.type === "tableRoll" && m.text) {
    const roll = tableRollText(m.text);
    if (roll) return roll.replace(/\*\*/g, "");
  }
  const text = typedText(m.text || "");
  const roll = readRoll(m.rolls?.[0]);
  return roll && roll.total !== null ? `${text} → ${roll.total}` : text;
}

/**
 * The mark of a private message in the log: the game master's own private
 * roll, a player's roll or whisper to the game master, or a whisper to
 * players (named); "" for a message everyone reads.
 */
export function privateTag(m: Message): string {
  if (!m.private) return "";
  const to = (m.to ?? []).filter((n) => n !== "GM");
  if (to.length) return `whisper to ${to.join(", ")}`;
  return typeof m.source === "string" && m.source ? "private to GM" : "private GM roll";
}

/** The combatants' names, once each and sorted: whom the game master may speak as. */
export function speakerNames(view: CampaignView): string[] {
  return [...new Set((view.game?.combatants ?? []).map((c) => c.name ?? "").filter(Boolean))].sort();
}

/** What POST /host/api/messages gets from the form. */
export function messageBody(text: string, as: string, privately: boolean): { text: string; creature?: string; private?: boolean } | null {
  const t = text.trim();
  if (!t) return null;
  const body: { text: string; creature?: string; private?: boolean } = { text: t };
  if (as) body.creature = as;
  if (privately) body.private = true;
  return body;
}
