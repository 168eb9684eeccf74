// The Export part of the Grids, exports and backups card, apart from
// drawing (so Node tests it): what can be exported, and what an export's
// Companion-Needs header asks for.
import type { DeepPartial } from "./partial";
import type { Module } from "./types";

type ModuleRow = DeepPartial<Module>;

export interface ExportRow {
  kind: "campaign" | "module";
  id: string;
  name: string;
  note: string;
}

/** What can be exported: the campaigns (the one played named so), then the modules. */
export function exportRows(campaigns: { id: string; name: string; primary?: boolean }[], modules: ModuleRow[]): ExportRow[] {
  return campaigns
    .map((c): ExportRow => ({ kind: "campaign", id: c.id, name: c.name, note: c.primary ? "the campaign being played" : "campaign" }))
    .concat(modules.map((m): ExportRow => ({ kind: "module", id: m.id ?? "", name: m.name ?? "", note: "module" })));
}

/** What the export's Companion-Needs header asks the game master to download too. */
export function needsText(name: string, needs: { kind: string; name: string }[]): string {
  if (!needs.length) return `“${name}” is whole in its archive.`;
  const them = needs.length === 1 ? "it" : "them";
  return `“${name}” uses content of ${needs.map((n) => `${n.kind} “${n.name}”`).join(", ")}: download ${them} too, and import ${them} first.`;
}

