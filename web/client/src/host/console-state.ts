// What the console's cards share: the campaign and modules last read (the
// import destinations come from both), the redraw memo, and each card's
// loader by name, so that one card can have another read again (an import
// reloads the modules and the campaign) and the live socket can have the
// cards an event changed read again (live.ts).
import { el, maybe, replaceChildren } from "./dom";
import { Drawn } from "./format";
import type { HostCampaign as CampaignView, Module as ModuleRow } from "./types";

export type Section = "campaign" | "settings" | "clients" | "messages" | "journal" | "sound" | "offers" | "modules" | "webclient" | "system";

export const state = {
  campaign: null as CampaignView | null, // GET campaign (null without one)
  modules: [] as ModuleRow[], // GET modules
  destinations: new Map<string, string>(), // offer id -> chosen destination
};

/** The last document each card drew. */
export const drawn = new Drawn();

const loaders = new Map<Section, () => Promise<void>>();

/** Registers a card's loader. */
export function setLoader(section: Section, fn: () => Promise<void>): void {
  loaders.set(section, fn);
}

/** Reads a card's document again (redrawn only if it changed). */
export function load(section: Section): Promise<void> {
  return loaders.get(section)?.() ?? Promise.resolve();
}

/** Reads a card's document again and redraws it even if it did not change. */
export function reload(section: Section): Promise<void> {
  drawn.forget(section);
  return load(section);
}

// destinationOptions lists where a loose collection or map can be filed:
// the primary campaign (the server's default) or a module.
export function destinationOptions(selected: string): HTMLOptionElement[] {
  const c = state.campaign?.campaign;
  const opts = [el("option", { value: "" }, c ? `The campaign “${c.name}” (default)` : "The primary campaign (default)")];
  for (const m of state.modules) opts.push(el("option", { value: m.id, selected: selected === m.id }, `Module: ${m.name}`));
  return opts;
}

export function refreshDestinationSelects(): void {
  const sel = maybe<HTMLSelectElement>("import-destination");
  if (sel) replaceChildren(sel, destinationOptions(sel.value));
  drawn.forget("offers"); // offers hold selects too
}
