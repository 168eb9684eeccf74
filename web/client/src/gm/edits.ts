// What the GM map's tools and door taps ask the server for, decided
// without the DOM or Pixi so it is unit-tested in Node (edits.test.ts):
// tools.ts and main.ts turn pointer events into these calls.
import type { Tool } from "./tools";

export type DoorState = "open" | "closed" | "locked";

/**
 * A door's next state on a tap: a tap opens or closes, shift+tap locks and
 * unlocks (to closed). Null when the tap changes nothing: a plain tap on a
 * locked door, which says so instead.
 */
export function nextDoorState(state: string | undefined, shift: boolean): DoorState | null {
  const next: DoorState = shift ? (state === "locked" ? "closed" : "locked") : state === "open" ? "closed" : state === "locked" ? "locked" : "open";
  return next === state ? null : next;
}

/** A fog stroke on the map: where it started, where the pointer is, and the brush's path. */
export interface Stroke {
  x0: number;
  y0: number;
  x: number;
  y: number;
  path: number[];
}

/**
 * Adds a point to a brush's path once the pointer moved more than a third
 * of the brush's radius from the last one (a steady line of circles
 * without one per pointer event). True when it was added.
 */
export function extendBrush(path: number[], x: number, y: number, radius: number): boolean {
  const lx = path[path.length - 2], ly = path[path.length - 1];
  if (Math.hypot(x - lx, y - ly) <= radius / 3) return false;
  path.push(Math.round(x), Math.round(y));
  return true;
}

/**
 * The body of POST maps/{id}/fog for a finished stroke of a fog tool, or
 * null when there is nothing to send (a rectangle under 2 px either way,
 * the move or focus tool). A map without fog gets it turned on by its
 * first edit.
 */
export function fogEdit(tool: Tool, s: Stroke, radius: number, fogOn: boolean): Record<string, unknown> | null {
  if (tool === "move" || tool === "focus") return null;
  const mode = tool.startsWith("reveal") ? "reveal" : "cover";
  let body: Record<string, unknown>;
  if (tool.endsWith("rect")) {
    const x = Math.min(s.x0, s.x), y = Math.min(s.y0, s.y);
    const width = Math.abs(s.x - s.x0), height = Math.abs(s.y - s.y0);
    if (width < 2 || height < 2) return null;
    body = { mode, shape: "rect", x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) };
  } else {
    // A click without a move paints one circle: the path's point twice.
    const path = s.path.length === 2 ? [...s.path, s.path[0], s.path[1]] : [...s.path];
    body = { mode, shape: "brush", path, radius: Math.round(radius) };
  }
  if (!fogOn) body.fogOfWar = true;
  return body;
}
