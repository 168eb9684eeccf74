// The journal's rules, apart from drawing (so Node tests them): which
// entries are new to their reader, and what is newest.
import type { Journal } from "../wire.gen";

export type JournalEntry = Journal["entries"][number];

/** The entries shown after seen (an ISO time, "" for never): what is new to the reader. */
export function newEntries(entries: JournalEntry[], seen: string): Set<string> {
  const since = seen ? Date.parse(seen) : Number.NEGATIVE_INFINITY;
  return new Set(entries.filter((e) => Date.parse(e.shown) > since).map((e) => e.id));
}

/** When the newest entry was shown ("" for none): the reader has seen up to it once they looked. */
export function newestShown(entries: JournalEntry[]): string {
  let best = "";
  for (const e of entries) if (!best || Date.parse(e.shown) > Date.parse(best)) best = e.shown;
  return best;
}
