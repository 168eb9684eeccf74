// Payloads that exist in two forms while the server changes them (issue
// 17): each reader here accepts the old and the new form and returns one
// shape, so the rest of the client never sees the difference.
import type { DragState, Interaction, Screen, Sight } from "../types";

const dragStates: DragState[] = ["start", "control", "end", "block", "cancel"];

/** A drag state: a name, or its index 0–4 in start|control|end|block|cancel. */
export function dragState(v: unknown): DragState | null {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < dragStates.length) return dragStates[v];
  if (typeof v === "string" && (dragStates as string[]).includes(v)) return v as DragState;
  return null;
}

/** systemPaused: a bare boolean (new) or {paused} (old). */
export function pausedFrom(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  if (v && typeof v === "object" && "paused" in v) return Boolean((v as { paused: unknown }).paused);
  return false;
}

function interactionName(v: unknown): Interaction | null {
  if (v === "none" || v === "token" || v === "all") return v;
  if (v === true) return "all";
  if (v === false) return "none";
  return null;
}

/**
 * interactionUpdated: a bare string none|token|all (new), or the old form:
 * a boolean (remote interaction on/off) or an object carrying `interaction`
 * or `remoteInteraction`. Unknown input keeps the current mode.
 */
export function interactionFrom(v: unknown, current: Interaction): Interaction {
  const direct = interactionName(v);
  if (direct) return direct;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return interactionName(o.interaction) ?? interactionName(o.remoteInteraction) ?? current;
  }
  return current;
}

/** The interaction mode a screen names: `interaction` (new) or `remoteInteraction` (old). */
export function screenInteraction(s: Screen | null | undefined, current: Interaction): Interaction {
  if (!s) return current;
  return interactionName(s.interaction) ?? interactionName(s.remoteInteraction) ?? current;
}

function isPolygon(p: unknown): p is number[] {
  return Array.isArray(p) && p.length >= 6 && p.every((n) => typeof n === "number" && Number.isFinite(n));
}

/** A single sight object {key,x,y,polygon}, or null when malformed. */
export function sightFrom(v: unknown): Sight | null {
  if (!v || typeof v !== "object") return null;
  const o = v as Record<string, unknown>;
  if (typeof o.key !== "string" || !isPolygon(o.polygon)) return null;
  return { key: o.key, x: Number(o.x) || 0, y: Number(o.y) || 0, polygon: o.polygon };
}

/**
 * lineOfSightUpdated: an array of sights (new; keys vision-<visionId> and
 * light-<lightId>) or the old object {mapId, segments, walls, vision:
 * {tokenId: polygon}}. Old-form polygons are keyed token-<tokenId>; their
 * origin is unknown there and is taken from the token when drawn.
 * Returns null for the map id when the payload does not name one.
 */
export function lineOfSightFrom(v: unknown): { mapId: string | null; sights: Sight[] } {
  if (Array.isArray(v)) {
    return { mapId: null, sights: v.map(sightFrom).filter((s): s is Sight => s !== null) };
  }
  const sights: Sight[] = [];
  let mapId: string | null = null;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (typeof o.mapId === "string") mapId = o.mapId;
    const vision = o.vision;
    if (vision && typeof vision === "object") {
      for (const [tokenId, poly] of Object.entries(vision as Record<string, unknown>)) {
        if (isPolygon(poly)) sights.push({ key: `token-${tokenId}`, x: NaN, y: NaN, polygon: poly });
      }
    }
  }
  return { mapId, sights };
}
