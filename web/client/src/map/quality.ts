// Map quality adapted to the device, from what the page measures: the
// interval of frames drawn back to back. When they run long (a CPU
// renderer, a weak tablet, a busy phone), quality is lowered one step at
// a time: the darkness mask's resolution first, then the canvas's (never
// below one canvas pixel per CSS pixel, so that labels, distances and
// every text stay as sharp as on an ordinary screen; the page's own text
// is never touched). The player sees a one-line notice with a way back
// ("restore": full quality, and this device stops lowering it).
//
// What a page learned is kept per device (localStorage): a lowered level
// is where the next visit starts, and multisampling (antialiasing, a
// context option that cannot change once the map is drawn) is asked for
// only on a device that has shown fast frames before: the first visit
// draws without it, on a CPU renderer it would cost about 40% of a frame.
// Pure logic here; the renderer feeds it frames and applies its answers.

export interface QualityLevel {
  /** The darkness mask's longest side, in texels. */
  darkness: number;
  /** The canvas's resolution at most (device pixels per CSS pixel). */
  resolutionCap: number;
}

export const qualityLevels: readonly QualityLevel[] = [
  { darkness: 1024, resolutionCap: 2 },
  { darkness: 512, resolutionCap: 2 },
  { darkness: 512, resolutionCap: 1.5 },
  { darkness: 256, resolutionCap: 1 },
];

/** What a device remembers (localStorage "companion.quality"). */
export interface StoredQuality {
  level?: number;
  /** The player restored full quality: never lowered again here. */
  pinned?: boolean;
  /** Frames were fast at full quality: multisampling is affordable. */
  fast?: boolean;
}

export const qualityKey = "companion.quality";

/** Frames in the window a decision is made on. */
export const windowSize = 24;
/** A window whose median interval is longer than this lowers quality (under 20 frames a second). */
export const slowFrameMs = 50;
/** A window whose median is at most this, at full quality, marks the device fast. */
export const fastFrameMs = 20;
/** After a step down, time for the new quality to show in the frames. */
export const cooldownMs = 3000;
/** Longer gaps are not frames drawn back to back (a paused tab, a debugger). */
const ignoredOverMs = 2000;

export function readStoredQuality(storage: Pick<Storage, "getItem"> | null): StoredQuality {
  try {
    const v = JSON.parse(storage?.getItem(qualityKey) ?? "null");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

export class QualityGovernor {
  level: number;
  pinned: boolean;
  fast: boolean;
  private window: number[] = [];
  private quietUntil = 0;

  /**
   * dpr is the device pixel ratio; stored what the device remembers;
   * adapt false (the GM's map) keeps full quality and measures nothing.
   */
  constructor(private dpr: number, stored: StoredQuality, private adapt = true) {
    this.pinned = stored.pinned === true || !adapt;
    this.level = this.pinned ? 0 : clampLevel(stored.level ?? 0);
    this.fast = stored.fast === true;
  }

  /** Whether to ask the WebGL context for multisampling (decided once, at start; the GM's map always does). */
  get antialias(): boolean {
    return !this.adapt || (this.fast && this.level === 0);
  }

  /** The canvas resolution: the device's, at most 2, lowered by the level, never below 1 (or the device's own, when under 1). */
  get resolution(): number {
    const device = Math.min(2, this.dpr || 1);
    return Math.max(Math.min(device, 1), Math.min(device, qualityLevels[this.level].resolutionCap));
  }

  get darknessSide(): number {
    return qualityLevels[this.level].darkness;
  }

  /** Whether quality is below full. */
  get lowered(): boolean {
    return this.level > 0;
  }

  /**
   * One frame drawn right after another, intervalMs apart, at time now.
   * Returns true when the level changed (the caller applies it).
   */
  recordFrame(intervalMs: number, now: number): boolean {
    if (!this.adapt || !(intervalMs > 0) || intervalMs > ignoredOverMs || now < this.quietUntil) return false;
    this.window.push(intervalMs);
    if (this.window.length < windowSize) return false;
    const median = [...this.window].sort((a, b) => a - b)[windowSize >> 1];
    this.window = [];
    if (median <= fastFrameMs && this.level === 0) this.fast = true;
    if (median <= slowFrameMs || this.pinned) return false;
    this.fast = false;
    const next = this.nextLevel();
    if (next === this.level) return false;
    this.level = next;
    this.quietUntil = now + cooldownMs;
    return true;
  }

  /** The next level that changes something on this device (the canvas levels do nothing at one device pixel per CSS pixel). */
  private nextLevel(): number {
    const res = this.resolution, side = this.darknessSide;
    for (let l = this.level + 1; l < qualityLevels.length; l++) {
      const probe = new QualityGovernor(this.dpr, { level: l });
      if (probe.resolution !== res || probe.darknessSide !== side) return l;
    }
    return this.level;
  }

  /** The player's way back: full quality, and no more lowering on this device. */
  restore(): void {
    this.level = 0;
    this.pinned = true;
    this.window = [];
  }

  /** What to remember for the next visit. */
  stored(): StoredQuality {
    return { level: this.level, pinned: this.pinned || undefined, fast: this.fast || undefined };
  }
}

function clampLevel(l: number): number {
  return Number.isInteger(l) ? Math.max(0, Math.min(qualityLevels.length - 1, l)) : 0;
}
