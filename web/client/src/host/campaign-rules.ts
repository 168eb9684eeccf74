// The Campaign and Player screen cards' rules, apart from drawing (so Node
// tests them): the new map form's fields, a map's line, what is on the
// player screen.
import type { DeepPartial } from "./partial";
import type { CampaignMap as FullCampaignMap, HostCampaign } from "./types";

type CampaignView = DeepPartial<HostCampaign>;
type CampaignMap = DeepPartial<FullCampaignMap>;

/** The new map form as typed. */
export interface NewMapForm {
  name: string;
  gridType: string;
  width: string;
  height: string;
  gridSize: string;
}

/** What POST /host/api/maps gets: the name and grid, and the sizes given. */
export function newMapFields(f: NewMapForm): Record<string, string | number> {
  const out: Record<string, string | number> = { name: f.name.trim(), gridType: f.gridType };
  for (const k of ["width", "height", "gridSize"] as const) {
    const v = f[k].trim();
    if (v) out[k] = Number(v);
  }
  return out;
}

/** The same fields as a multipart form, with the background image. */
export function newMapForm(fields: Record<string, string | number>, file: File): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, String(v));
  body.append("file", file, file.name);
  return body;
}

/** A map's second line: its size and how many tokens stand on it. */
export function mapLine(m: CampaignMap): string {
  const size = m.width && m.height ? `${m.width}×${m.height} px` : "";
  const n = m.tokens ?? 0;
  return [size, `${n} token${n === 1 ? "" : "s"}`].filter(Boolean).join(" · ");
}

/** What is on the player screen, and under which handout. */
export function screenState(view: CampaignView): { text: string; map: CampaignMap | undefined; overlay: string } {
  const sc = view.screen ?? {};
  // screenMap names a module's map too (the library puts those on screen),
  // which the campaign's own list does not hold.
  const map = view.screenMap ?? (view.maps ?? []).find((m) => m.onScreen);
  const overlay = sc.overlayType === "image" ? "an image handout" : sc.overlayType === "handout" ? "a text handout" : "";
  const from = map?.library ? ` (from ${map.library})` : "";
  const text = (map ? `“${map.name}”${from} is on the player screen` : "Nothing is on the player screen") + (overlay ? `, under ${overlay}.` : ".");
  return { text, map, overlay };
}
