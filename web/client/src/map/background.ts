// The map's background: a plain floor and the map's image or video,
// loaded as early as the page knows its URL. Images are loaded and
// decoded straight away by an <img> (downloaded and decoded off the main
// thread) rather than through PixiJS's Assets, whose first use waits for
// its image-format detection; they are capped at the device's largest
// texture (textures.ts).
import { Container, Graphics, ImageSource, Sprite, Texture, VideoSource } from "pixi.js";
import type { MapData } from "../types";
import { capTexture, textureLimit } from "./textures";
import { takeEarlyImage } from "../net/early";
import { fetchTileIndex, TiledPicture, type MapView } from "./tiled";

/** Whether a background texture at `scale` covers the whole map. */
function covers(tex: Texture, scale: number, map: MapData): boolean {
  return tex.width * scale >= (map.width || 1000) - 0.5 && tex.height * scale >= (map.height || 1000) - 0.5;
}

/**
 * Whether an image has no transparent pixel, judged from a copy at most
 * 256 pixels a side drawn with area averaging (a transparent patch lowers
 * the alpha of the pixel it falls in). Unreadable images count as not opaque.
 */
function isOpaque(tex: Texture): boolean {
  const img = tex.source.resource as CanvasImageSource | undefined;
  if (!img) return false;
  try {
    const k = Math.min(1, 256 / Math.max(tex.width, tex.height));
    const w = Math.max(1, Math.round(tex.width * k)), h = Math.max(1, Math.round(tex.height * k));
    const c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    const ctx = c.getContext("2d", { willReadFrequently: true })!;
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(img, 0, 0, w, h);
    const px = ctx.getImageData(0, 0, w, h).data;
    for (let i = 3; i < px.length; i += 4) if (px[i] !== 255) return false;
    return true;
  } catch {
    return false;
  }
}

function backgroundURL(src: string): string {
  return /^(https?:|data:|blob:|\/)/i.test(src) ? src : `/${src}`;
}

/** Resolves in a task of its own: what waits on the main thread runs first. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

const backgrounds = new Map<string, Promise<Texture>>();
// The loads that have finished, so that a map shown after its image is
// ready draws it in the same frame, not one promise turn (often a whole
// frame on a busy page) later.
const loadedBackgrounds = new Map<string, Texture>();

/**
 * The image at url, downloaded and decoded by an <img>: neither step waits
 * for the page's main thread. fetch, then blob(), then createImageBitmap
 * each waited for a turn of it between their steps, and on a busy CPU
 * renderer at start-up (the bundle's evaluation, WebGL's start, the first
 * frames) those turns came up to a second or more after the bytes had
 * arrived.
 */
function loadImage(url: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.src = url;
  return img.decode().then(
    () => img,
    async () => {
      throw new Error(await whyNotLoaded(url));
    },
  );
}

/** Why an image did not load, for the page's error line: the server's status, or that it is no image. */
async function whyNotLoaded(url: string): Promise<string> {
  try {
    const res = await fetch(url, { method: "HEAD" });
    return res.ok ? "not an image the browser can decode" : `${res.status} ${res.statusText}`;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * The map's image as a texture, one load per URL (a preload and the
 * renderer's own load share it). Loaded and decoded straight away
 * (loadImage) rather than through PixiJS's Assets, whose first use waits
 * for its image-format detection: that held the background's request
 * back by 100-200 ms.
 */
function loadBackgroundTexture(url: string): Promise<Texture> {
  let p = backgrounds.get(url);
  if (!p) {
    // index.html's script may have started this load already; should
    // it have failed, a load of our own says why (the server's status).
    const early = takeEarlyImage(url);
    p = (early ? early.catch(() => loadImage(url)) : loadImage(url)).then((image) => {
      const tex = new Texture({ source: new ImageSource({ resource: image }) });
      loadedBackgrounds.set(url, tex);
      return tex;
    });
    p.catch(() => backgrounds.delete(url)); // a later load tries again
    backgrounds.set(url, p);
  }
  return p;
}

/**
 * Starts downloading and decoding a map's background image before the
 * renderer needs it (while WebGL starts up): the map is drawn as soon as
 * both are ready instead of one after the other. Videos start with the map.
 */
export function preloadBackground(map: MapData | null | undefined): void {
  if (!map || map.video || !map.image) return;
  // A picture past the largest texture may be drawn from tiles instead.
  const scale = map.scale && map.scale > 0 ? map.scale : 1;
  if (Math.max(map.width || 1000, map.height || 1000) / scale > textureLimit()) return;
  loadBackgroundTexture(backgroundURL(map.image)).catch(() => {
    /* the renderer's own load reports it */
  });
}

/** What the layer needs from the renderer. */
export interface BackgroundHooks {
  /** Asks for a frame. */
  requestRender(): void;
  /** Resolves after the next frame drawn. */
  afterFrame(): Promise<void>;
  /** A load failed: what to report. */
  failed(message: string): void;
}

export class BackgroundLayer extends Container {
  /** Whether the image (or video) shows, or the map has none. */
  loaded = false;
  /** Whether the image (or video) could not be loaded: it will not show. */
  failed = false;
  /** The video background, when the map has one (the host plays and pauses it). */
  video: HTMLVideoElement | null = null;
  /** The picture drawn from tiles, when it is too big for one texture (tiled.ts). */
  tiled: TiledPicture | null = null;
  private key = "";
  private lastView: MapView | null = null;

  constructor(private hooks: BackgroundHooks) {
    super();
  }

  /** The id of the map whose background shows (or loads). */
  get mapId(): string {
    return this.key.split("|")[0];
  }

  /** The part of the map in view changed: a tiled picture loads what it needs. */
  view(v: MapView): void {
    this.lastView = v;
    this.tiled?.view(v);
  }

  clear(): void {
    this.tiled = null;
    for (const c of this.removeChildren()) c.destroy();
    this.video?.pause();
    this.video = null;
    this.key = "";
    this.loaded = false;
    this.failed = false;
  }

  /** Shows map's background; nothing happens when it already shows it. */
  show(map: MapData): void {
    const src = map.video || map.image || "";
    const key = `${map.id}|${src}|${map.scale ?? 1}|${map.width}x${map.height}`;
    if (key === this.key) return;
    this.clear();
    this.key = key;
    const base = new Graphics().rect(0, 0, map.width || 1000, map.height || 1000).fill({ color: 0x2a2d33 });
    this.addChild(base);
    if (!src) {
      this.loaded = true;
      return;
    }
    const url = backgroundURL(src);
    const scale = map.scale && map.scale > 0 ? map.scale : 1;
    const place = (tex: Texture) => {
      if (this.key !== key) return;
      const s = new Sprite(capTexture(tex));
      s.scale.set(scale);
      this.addChild(s);
      // The plain floor under an opaque image that covers the map is never
      // seen, yet it cost a full-screen pass every frame on a CPU renderer.
      // Finding out reads the image's pixels back (a wait on the GPU), so it
      // is done after the first frame with the image, in a task of its own:
      // in the frame's callback it held that frame off the screen.
      if (covers(tex, scale, map) && !map.video) {
        this.hooks.afterFrame().then(nextTask).then(() => {
          if (this.key === key && isOpaque(tex)) {
            base.visible = false;
            this.hooks.requestRender();
          }
        });
      }
      this.loaded = true;
      performance.mark("companion:background-loaded");
      this.hooks.requestRender();
    };
    if (map.video) {
      const v = document.createElement("video");
      v.src = url;
      v.muted = true;
      v.loop = true;
      v.playsInline = true;
      v.crossOrigin = "anonymous";
      v.addEventListener("loadeddata", () => {
        place(new Texture({ source: new VideoSource({ resource: v, autoPlay: true }) }));
        v.play().catch(() => {});
      }, { once: true });
      v.addEventListener("error", () => {
        if (this.key !== key) return;
        this.failed = true;
        this.hooks.failed(`background video failed to load: ${url}`);
        this.hooks.requestRender();
      }, { once: true });
      this.video = v;
      return;
    }
    const ready = loadedBackgrounds.get(url);
    if (ready) {
      place(ready);
      return;
    }
    const whole = () =>
      loadBackgroundTexture(url).then(place, (err: Error) => {
        if (this.key !== key) return;
        this.failed = true;
        this.hooks.failed(`background image failed to load: ${url}${err?.message ? ` (${err.message})` : ""}`);
        this.hooks.requestRender();
      });
    // A picture past the device's largest texture is drawn from the
    // server's tiles, at full detail; one the server has no tiles for is
    // drawn whole, scaled down to fit (capTexture).
    if (Math.max(map.width || 1000, map.height || 1000) / scale <= textureLimit()) {
      whole();
      return;
    }
    fetchTileIndex(url).then((idx) => {
      if (this.key !== key) return;
      if (!idx || Math.max(idx.width, idx.height) <= textureLimit()) {
        whole();
        return;
      }
      const tiled = new TiledPicture(url, idx, scale, () => this.hooks.requestRender());
      this.tiled = tiled;
      this.addChild(tiled);
      if (this.lastView) tiled.view(this.lastView);
      tiled.start().then(() => {
        if (this.key !== key) return;
        this.loaded = true;
        performance.mark("companion:background-loaded");
        this.hooks.requestRender();
      });
    });
  }
}
