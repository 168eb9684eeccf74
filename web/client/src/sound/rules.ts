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
