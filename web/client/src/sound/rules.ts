// The pure parts of the table's sound (docs/api.md, "Sound"): the server's
// clock from ping answers, where a track stands now, how loud it plays,
// which screens play, and the listener's own settings. No DOM here, so
// every rule has a unit test (rules.test.ts).
import type { SoundPlayback } from "../wire.gen";

/** One ping: when it left and came back (this page's clock), and the server's clock in the answer. */
export interface ClockSample {
  sent: number;
  received: number;
  serverTime: number;
}

/**
 * The server's clock minus this page's, from the sample with the shortest
 * round trip (the one the network delayed least): the answer is assumed
 * to have been made half way through it.
 */
export function clockOffset(samples: ClockSample[]): number {
  let best: ClockSample | null = null;
  for (const s of samples) {
    if (s.received < s.sent) continue;
    if (!best || s.received - s.sent < best.received - best.sent) best = s;
  }
  return best ? best.serverTime - (best.sent + best.received) / 2 : 0;
}

/** Where a playback's track stands at serverNow, in seconds (within the track when its length is known). */
export function positionAt(p: SoundPlayback, serverNow: number): number {
  const at = p.paused ? p.position : (serverNow - p.startedAt) / 1000;
  const clamped = Math.max(0, at);
  return p.track.duration > 0 ? Math.min(clamped, p.track.duration) : clamped;
}

/** The listener's own settings, kept in their browser. */
export interface SoundSettings {
  music: number;
  ambience: number;
  effects: number;
  muted: boolean;
}

export const defaultSettings: SoundSettings = { music: 0.8, ambience: 0.8, effects: 0.8, muted: false };
export const settingsKey = "companion.sound";

function unit(v: unknown, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : fallback;
}

/** The settings stored under settingsKey, each field checked (a damaged one takes its default). */
export function readSettings(raw: string | null): SoundSettings {
  let v: Partial<Record<keyof SoundSettings, unknown>> = {};
  try {
    const parsed = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === "object") v = parsed;
  } catch {
    /* a damaged value: the defaults */
  }
  return {
    music: unit(v.music, defaultSettings.music),
    ambience: unit(v.ambience, defaultSettings.ambience),
    effects: unit(v.effects, defaultSettings.effects),
    muted: v.muted === true,
  };
}

/**
 * The fade envelope at position t of a track of the given length: rising
 * from 0 over the first `fade` seconds, falling to 0 over the last.
 */
export function fadeGain(t: number, duration: number, fade: number): number {
  if (fade <= 0) return 1;
  let g = Math.min(1, t / fade);
  if (duration > 0) g = Math.min(g, (duration - t) / fade);
  return Math.max(0, Math.min(1, g));
}

/** The element volume of a playback: the listener's channel level times the game master's, times the fade. */
export function gainOf(p: SoundPlayback, s: SoundSettings, t: number): number {
  if (s.muted) return 0;
  const channel = p.channel === "ambience" ? s.ambience : p.channel === "effects" ? s.effects : s.music;
  return Math.max(0, Math.min(1, channel * p.volume * fadeGain(t, p.track.duration, p.fade)));
}

/** Whether this page plays: every page, only displays, or none (the game master's choice). */
export function screenPlays(screens: string, display: boolean): boolean {
  if (screens === "none") return false;
  if (screens === "displays") return display;
  return true;
}

/** How far (seconds) a playing element may stray from where the server says before it jumps back (a seek). */
export const seekBeyond = 0.25;

/**
 * The playback rate that brings an element drift seconds ahead (negative:
 * behind) of where the server says back into step without a jump, which
 * a listener would hear: up to 8% slower or faster, none within 5 ms.
 */
export function catchUpRate(drift: number): number {
  if (Math.abs(drift) < 0.005) return 1;
  return 1 - Math.max(-0.08, Math.min(0.08, drift * 2));
}

// Ambient sounds on the map (docs/api.md, "Ambient sounds"): heard by a
// listener's token in proportion to its distance, muffled behind walls.

/** How much of a sound a wall between it and the listener lets through. */
export const wallFactor = 0.25;

/**
 * The distance curve: full at the sound's point, nothing at its radius and
 * beyond, the square of the share of the radius left between: at half the
 * radius a quarter. Distances in grid units.
 */
export function distanceGain(distance: number, radius: number): number {
  if (!(radius > 0) || distance >= radius) return 0;
  const left = 1 - Math.max(0, distance) / radius;
  return left * left;
}

function crosses(ax: number, ay: number, bx: number, by: number, s: [number, number, number, number]): boolean {
  const [cx, cy, dx, dy] = s;
  const d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  const d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** An ambient sound as the map holds it: a point (map pixels), a radius (grid units), a level. */
export interface Ambient {
  x: number;
  y: number;
  radius: number;
  volume: number;
}

/**
 * How loud an ambient sound is for listeners at the given points (map
 * pixels): the loudest of them, by the distance curve, times wallFactor
 * when a wall that blocks sight (segments: map/geometry.ts sightSegments,
 * given only where the map has line of sight) stands between.
 */
export function ambientGain(a: Ambient, listeners: { x: number; y: number }[], gridSize: number, segments: [number, number, number, number][]): number {
  let best = 0;
  const cell = gridSize > 0 ? gridSize : 1;
  for (const l of listeners) {
    let g = distanceGain(Math.hypot(l.x - a.x, l.y - a.y) / cell, a.radius);
    if (g > 0 && segments.some((s) => crosses(l.x, l.y, a.x, a.y, s))) g *= wallFactor;
    best = Math.max(best, g);
  }
  return best * (Number.isFinite(a.volume) ? Math.max(0, Math.min(1, a.volume)) : 1);
}
