// The table's sound on a player page or a display: plays what the game
// master plays (GET /api/sound, then soundUpdated), at the place the
// server's clock says, so every screen is in step and a page that joins
// late starts mid-track. One <audio> element per playing list; the
// browser fetches the track with range requests as it seeks.
//
// Browsers refuse to play before the person has touched the page: then
// one button, "Tap to hear the table", starts everything. The listener's
// volumes (music, ambience, effects) and mute stay in their browser.
import type { EventRouter } from "../net/events";
import type { SoundPlayback, SoundState } from "../wire.gen";
import {
  ambientGain, catchUpRate, type ClockSample, clockOffset, gainOf, positionAt, readSettings, seekBeyond, screenPlays, type SoundSettings, settingsKey,
} from "./rules";

interface Voice {
  el: HTMLAudioElement;
  playback: SoundPlayback;
}

/** What the ambient sounds of the map on screen need from the page, read at each tick. */
export interface AmbientScene {
  /** The map's sounds players hear (hidden ones never reach them). */
  sounds: Record<string, unknown>[];
  /** Where this listener's tokens stand (map pixels). */
  listeners: { x: number; y: number }[];
  gridSize: number;
  /** The walls that block sight, where the map has line of sight; else none. */
  segments: [number, number, number, number][];
}

export interface SoundOptions {
  app: HTMLElement;
  events: EventRouter;
  display: boolean;
  ambient?: () => AmbientScene | null;
}

interface AmbientVoice {
  el: HTMLAudioElement;
  url: string;
  gain: number;
}

export class SoundPlayer {
  private state: SoundState | null = null;
  private voices = new Map<string, Voice>();
  private ambient = new Map<string, AmbientVoice>();
  private samples: ClockSample[] = [];
  private offset = 0;
  private settings: SoundSettings;
  private blocked = false;
  private tapButton: HTMLButtonElement;
  private panel: HTMLElement;
  private timer: number;

  constructor(private opt: SoundOptions) {
    this.settings = readSettings(safeGet(settingsKey));
    this.tapButton = document.createElement("button");
    this.tapButton.type = "button";
    this.tapButton.className = "sound-tap";
    this.tapButton.textContent = "🔊 Tap to hear the table";
    this.tapButton.hidden = true;
    this.tapButton.addEventListener("click", () => this.unblock());
    opt.app.append(this.tapButton);
    this.panel = this.buildPanel();
    opt.app.append(this.panel);
    opt.events.on("soundUpdated", (s) => this.apply(s));
    // Keep every element where the server's clock says, and fades moving.
    this.timer = window.setInterval(() => this.tick(), 200);
  }

  /** The socket opened: measure the clock (a few pings), then read the state. */
  async connected(): Promise<void> {
    this.samples = [];
    for (let i = 0; i < 5; i++) {
      const sent = performance.timeOrigin + performance.now();
      const answer = this.opt.events.request("ping", null, { timeoutMs: 5000 });
      if (!answer) break;
      try {
        const r = await answer;
        const received = performance.timeOrigin + performance.now();
        if (typeof r.serverTime === "number") this.samples.push({ sent, received, serverTime: r.serverTime });
      } catch {
        break;
      }
    }
    this.offset = clockOffset(this.samples);
    try {
      const res = await fetch("/api/sound", { headers: { Accept: "application/json" }, cache: "no-store" });
      if (res.ok) this.apply((await res.json()) as SoundState);
    } catch {
      /* no sound: the page plays nothing until soundUpdated */
    }
  }

  /** The server's clock now, as this page estimates it. */
  serverNow(): number {
    return performance.timeOrigin + performance.now() + this.offset;
  }

  private apply(s: SoundState): void {
    this.state = s;
    const plays = screenPlays(s.screens, this.opt.display);
    const wanted = new Set(plays ? (s.playing ?? []).map((p) => p.playlist) : []);
    for (const [id, v] of this.voices) {
      if (!wanted.has(id)) {
        v.el.pause();
        v.el.removeAttribute("src");
        v.el.load();
        this.voices.delete(id);
      }
    }
    if (!plays) return;
    for (const p of s.playing ?? []) {
      let v = this.voices.get(p.playlist);
      if (!v) {
        const el = new Audio();
        el.preload = "auto";
        v = { el, playback: p };
        this.voices.set(p.playlist, v);
      }
      const newTrack = v.playback.track.url !== p.track.url || !v.el.getAttribute("src");
      v.playback = p;
      if (newTrack) v.el.src = p.track.url;
      this.align(v, true);
    }
  }

  /**
   * Brings an element to where the server says and plays or pauses it:
   * a jump when forced (a new state) or far off, else a slightly faster or
   * slower rate until it is in step (a jump is heard; a 3% change is not).
   */
  private align(v: Voice, force: boolean): void {
    const p = v.playback;
    const target = positionAt(p, this.serverNow());
    v.el.volume = gainOf(p, this.settings, target);
    if (p.paused) {
      v.el.pause();
      v.el.playbackRate = 1;
      if (force || Math.abs(v.el.currentTime - target) > 0.005) v.el.currentTime = target;
      return;
    }
    if (p.track.duration > 0 && target >= p.track.duration) {
      v.el.pause(); // ended; the server moves the list on
      return;
    }
    const drift = v.el.currentTime - target;
    if (force || Math.abs(drift) > seekBeyond) {
      v.el.currentTime = target;
      v.el.playbackRate = 1;
    } else v.el.playbackRate = v.el.paused ? 1 : catchUpRate(drift);
    if (v.el.paused && !this.blocked) {
      v.el.play().catch((err: DOMException) => {
        if (err?.name === "NotAllowedError") this.block();
      });
    }
  }

  private tick(): void {
    for (const v of this.voices.values()) {
      if (v.el.readyState >= 1 && !v.el.seeking) this.align(v, false);
    }
    this.syncAmbient();
  }

  /**
   * The map's ambient sounds: one looping element each, at the level its
   * distance from this listener's tokens (and the walls between) gives,
   * its loop placed by the server's clock so that every screen is at the
   * same point of it.
   */
  private syncAmbient(): void {
    const scene = this.opt.ambient?.() ?? null;
    const plays = !this.state || screenPlays(this.state.screens, this.opt.display);
    const seen = new Set<string>();
    for (const o of plays && scene ? scene.sounds : []) {
      const id = typeof o.id === "string" ? o.id : "";
      const url = typeof o.url === "string" ? o.url : "";
      const x = Number(o.x), y = Number(o.y), radius = Number(o.radius);
      if (!id || !url || !Number.isFinite(x) || !Number.isFinite(y)) continue;
      seen.add(id);
      const level = ambientGain({ x, y, radius, volume: o.volume === undefined ? 1 : Number(o.volume) }, scene!.listeners, scene!.gridSize, scene!.segments);
      let v = this.ambient.get(id);
      if (!v || v.url !== url) {
        v?.el.pause();
        const el = new Audio(url);
        el.loop = true;
        el.preload = "auto";
        el.addEventListener("loadedmetadata", () => {
          if (el.duration > 0 && Number.isFinite(el.duration)) el.currentTime = (this.serverNow() / 1000) % el.duration;
        });
        v = { el, url, gain: level };
        this.ambient.set(id, v);
      }
      v.gain = level;
      v.el.volume = this.settings.muted ? 0 : Math.max(0, Math.min(1, level * this.settings.ambience));
      if (v.el.paused && !this.blocked) {
        v.el.play().catch((err: DOMException) => {
          if (err?.name === "NotAllowedError") this.block();
        });
      }
    }
    for (const [id, v] of this.ambient) {
      if (!seen.has(id)) {
        v.el.pause();
        this.ambient.delete(id);
      }
    }
  }

  private block(): void {
    this.blocked = true;
    this.tapButton.hidden = false;
  }

  private unblock(): void {
    this.blocked = false;
    this.tapButton.hidden = true;
    for (const v of this.voices.values()) {
      this.align(v, true);
      v.el.play().catch(() => this.block());
    }
    for (const v of this.ambient.values()) v.el.play().catch(() => this.block());
  }

  private save(): void {
    try {
      localStorage.setItem(settingsKey, JSON.stringify(this.settings));
    } catch {
      /* no storage: the settings last this visit */
    }
    for (const v of this.voices.values()) v.el.volume = gainOf(v.playback, this.settings, positionAt(v.playback, this.serverNow()));
  }

  private buildPanel(): HTMLElement {
    const box = document.createElement("details");
    box.className = "sound-panel";
    box.hidden = this.opt.display; // a display has no one at hand; it plays at the stored levels
    box.innerHTML = `<summary title="Sound" aria-label="Sound">🔊</summary>
      <label>Music <input type="range" min="0" max="1" step="0.05" data-channel="music"></label>
      <label>Ambience <input type="range" min="0" max="1" step="0.05" data-channel="ambience"></label>
      <label>Effects <input type="range" min="0" max="1" step="0.05" data-channel="effects"></label>
      <label><input type="checkbox" data-mute> Mute</label>`;
    for (const input of box.querySelectorAll<HTMLInputElement>("input[data-channel]")) {
      const ch = input.dataset.channel as "music" | "ambience" | "effects";
      input.value = String(this.settings[ch]);
      input.addEventListener("input", () => {
        this.settings = { ...this.settings, [ch]: Number(input.value) };
        this.save();
      });
    }
    const mute = box.querySelector<HTMLInputElement>("input[data-mute]")!;
    mute.checked = this.settings.muted;
    mute.addEventListener("change", () => {
      this.settings = { ...this.settings, muted: mute.checked };
      this.save();
    });
    return box;
  }

  /** For the browser tests (window.companionDebug.sound()): what each element plays and where, against where the server says. */
  debug() {
    const now = this.serverNow();
    return {
      blocked: this.blocked,
      offset: this.offset,
      samples: this.samples.length,
      screens: this.state?.screens ?? "",
      voices: [...this.voices.values()].map((v) => ({
        playlist: v.playback.playlist,
        url: v.playback.track.url,
        paused: v.el.paused,
        position: v.el.currentTime,
        expected: positionAt(v.playback, now),
        volume: v.el.volume,
        serverNow: now,
      })),
      ambient: [...this.ambient.entries()].map(([id, v]) => ({ id, url: v.url, gain: v.gain, volume: v.el.volume, paused: v.el.paused })),
    };
  }

  stop(): void {
    clearInterval(this.timer);
    for (const v of this.voices.values()) v.el.pause();
    for (const v of this.ambient.values()) v.el.pause();
  }
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
