// A map picture too big for the device's textures, drawn from the tiles
// the server cuts (GET <picture>?tiles, package maptiles): the level the
// zoom needs, only the tiles in view, over the one-tile top level that
// is always there (a zoomed-out view, and what shows while a tile loads).
// At zoom 1 a player sees every pixel of the picture, where a picture
// scaled down to fit one texture (textures.ts) loses the detail they zoom
// in for; and the device holds a screenful of tiles, not the picture.
import { Container, ImageSource, Sprite, Texture } from "pixi.js";
import { isIndex, levelFor, tilesInView, type MapView, type TileIndex } from "./tile-plan";

export type { MapView, TileIndex } from "./tile-plan";

/** The picture's tile index, or null when the server has none for it (the picture is then drawn whole). */
export async function fetchTileIndex(url: string): Promise<TileIndex | null> {
  try {
    const res = await fetch(`${url}${url.includes("?") ? "&" : "?"}tiles`);
    if (!res.ok) return null;
    const idx: unknown = await res.json();
    return isIndex(idx) ? idx : null;
  } catch {
    return null;
  }
}

/** How many tiles load at once: the browser's connections to one server. */
const parallelLoads = 6;

export class TiledPicture extends Container {
  private sprites = new Map<string, Sprite>();
  private loading = new Set<string>();
  private queue: [number, number, number][] = [];
  private wanted = new Set<string>();
  private destroyedFlag = false;

  /**
   * @param url the picture's URL
   * @param idx its tile index
   * @param scale map units per picture pixel
   * @param changed asks for a frame (a tile arrived)
   */
  constructor(private url: string, readonly idx: TileIndex, private pictureScale: number, private changed: () => void) {
    super();
    this.scale.set(pictureScale);
  }

  /** Whether the top level, the whole picture small, has arrived. */
  topLoaded = false;

  /** Loads the top level first; resolves when it shows (or failed). */
  start(): Promise<void> {
    const top = this.idx.levels - 1;
    this.wanted.add(key(top, 0, 0));
    return this.load(top, 0, 0).then(() => {
      this.topLoaded = true;
    });
  }

  /** Follows the view: the level it needs, the tiles in it; tiles out of it go. */
  view(v: MapView): void {
    if (this.destroyedFlag) return;
    const top = this.idx.levels - 1;
    const level = levelFor(this.idx, v.pixelsPerUnit, this.pictureScale);
    const want = new Set<string>([key(top, 0, 0)]);
    const needed = level === top ? [] : tilesInView(this.idx, level, v, this.pictureScale);
    for (const [l, x, y] of needed) want.add(key(l, x, y));
    this.wanted = want;
    for (const [k, s] of this.sprites) {
      if (want.has(k)) continue;
      s.destroy({ texture: true, textureSource: true });
      this.sprites.delete(k);
    }
    this.queue = needed.filter(([l, x, y]) => !this.sprites.has(key(l, x, y)) && !this.loading.has(key(l, x, y)));
    this.pump();
  }

  private pump(): void {
    while (this.loading.size < parallelLoads && this.queue.length > 0) {
      const [l, x, y] = this.queue.shift()!;
      void this.load(l, x, y).then(() => this.pump());
    }
  }

  private async load(level: number, x: number, y: number): Promise<void> {
    const k = key(level, x, y);
    this.loading.add(k);
    try {
      const res = await fetch(`${this.url}${this.url.includes("?") ? "&" : "?"}tile=${level}/${x}/${y}&v=${encodeURIComponent(this.idx.version)}`);
      if (!res.ok) return;
      const bitmap = await createImageBitmap(await res.blob());
      if (this.destroyedFlag || !this.wanted.has(k)) {
        bitmap.close();
        return;
      }
      const s = new Sprite(new Texture({ source: new ImageSource({ resource: bitmap }) }));
      const span = this.idx.tile * 2 ** level;
      s.position.set(x * span, y * span);
      s.scale.set(2 ** level);
      // Finer levels draw over coarser ones; the top level is always first.
      s.zIndex = this.idx.levels - level;
      this.sortableChildren = true;
      this.addChild(s);
      this.sprites.set(k, s);
      this.changed();
    } catch {
      /* a tile that fails leaves the coarser level showing */
    } finally {
      this.loading.delete(k);
    }
  }

  /** How many tiles are drawn, and of which levels (for tests and benchmarks). */
  stats(): { tiles: number; levels: number[]; loading: number; bytes: number } {
    const levels = new Set<number>();
    let bytes = 0;
    for (const [k, s] of this.sprites) {
      levels.add(Number(k.split("/")[0]));
      bytes += s.texture.source.pixelWidth * s.texture.source.pixelHeight * 4;
    }
    return { tiles: this.sprites.size, levels: [...levels].sort(), loading: this.loading.size + this.queue.length, bytes };
  }

  destroy(): void {
    this.destroyedFlag = true;
    for (const s of this.sprites.values()) s.destroy({ texture: true, textureSource: true });
    this.sprites.clear();
    super.destroy({ children: true });
  }
}

function key(level: number, x: number, y: number): string {
  return `${level}/${x}/${y}`;
}
