// Fog of war (map.fogOfWar). The fog is a mask the size of the map, kept
// in a canvas and shown as one sprite: black where the party has not
// revealed the map. Revealed is (1) what the host's fog image reveals —
// the map's `fog` file or the newer image from fogUpdated, white/opaque
// pixels revealed, as the application's own client multiplies it — (2)
// with fogExploration, everywhere the party has seen this session, and
// (3) what the party sees now. hides() reads the same canvas.
import { Container, Sprite, Texture } from "pixi.js";
import type { MapData } from "../types";
import type { VisionAreas } from "./vision";
import { textureLimit } from "./textures";

const maxSide = 2048; // mask resolution; the map is scaled down to fit (and to the device's largest texture)

export class FogLayer extends Container {
  private canvas = document.createElement("canvas");
  private ctx = this.canvas.getContext("2d", { willReadFrequently: true })!;
  private explored = document.createElement("canvas");
  private exploredCtx = this.explored.getContext("2d")!;
  private image: HTMLImageElement | null = null;
  private imageMask: HTMLCanvasElement | null = null;
  private sprite: Sprite | null = null;
  private texture: Texture | null = null;
  private k = 1;
  private map: MapData | null = null;
  private areas: VisionAreas | null = null;
  private imageKey = "";
  onChange: () => void = () => {};

  /** Starts over for a map (and its fog image, when given). */
  load(map: MapData, fogImage: string | null): void {
    const same = this.map?.id === map.id;
    this.map = map;
    this.visible = !!map.fogOfWar;
    if (!map.fogOfWar) return;
    const w = map.width || 1000, h = map.height || 1000;
    this.k = Math.min(1, Math.min(maxSide, textureLimit()) / Math.max(w, h));
    const cw = Math.ceil(w * this.k), ch = Math.ceil(h * this.k);
    if (this.canvas.width !== cw || this.canvas.height !== ch || !same) {
      this.canvas.width = this.explored.width = cw;
      this.canvas.height = this.explored.height = ch;
      this.exploredCtx.clearRect(0, 0, cw, ch);
      this.texture?.destroy(true);
      this.sprite?.destroy();
      this.texture = Texture.from(this.canvas);
      this.sprite = new Sprite(this.texture);
      this.sprite.scale.set(1 / this.k);
      this.addChild(this.sprite);
    }
    const src = fogImage ? imageSource(fogImage, true) : map.fog ? imageSource(map.fog, false) : "";
    if (src !== this.imageKey) {
      this.imageKey = src;
      this.image = null;
      this.imageMask = null;
      if (src) {
        const img = new Image();
        img.onload = () => {
          if (this.imageKey !== src) return;
          this.image = img;
          this.paint();
          this.onChange();
        };
        img.src = src;
      }
    }
    this.paint();
  }

  /** Updates what the party sees now (and has explored). */
  reveal(areas: VisionAreas): void {
    this.areas = areas;
    if (!this.map?.fogOfWar) return;
    if (this.map.fogExploration) this.cut(this.exploredCtx, areas.sight, "source-over");
    this.paint();
  }

  private cut(ctx: CanvasRenderingContext2D, polys: number[][], op: GlobalCompositeOperation): void {
    ctx.save();
    ctx.globalCompositeOperation = op;
    ctx.fillStyle = "#fff";
    ctx.scale(this.k, this.k);
    for (const p of polys) {
      if (p.length < 6) continue;
      ctx.beginPath();
      ctx.moveTo(p[0], p[1]);
      for (let i = 2; i + 1 < p.length; i += 2) ctx.lineTo(p[i], p[i + 1]);
      ctx.closePath();
      ctx.fill();
    }
    ctx.restore();
  }

  private paint(): void {
    if (!this.map?.fogOfWar || !this.texture) return;
    const ctx = this.ctx, w = this.canvas.width, h = this.canvas.height;
    ctx.globalCompositeOperation = "source-over";
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, w, h);
    if (this.image) {
      ctx.globalCompositeOperation = "destination-out";
      ctx.drawImage(this.revealedByImage(w, h), 0, 0);
    }
    ctx.globalCompositeOperation = "destination-out";
    if (this.map.fogExploration) ctx.drawImage(this.explored, 0, 0);
    if (this.areas?.lineOfSight) this.cut(ctx, this.areas.sight, "destination-out");
    ctx.globalCompositeOperation = "source-over";
    this.texture.source.update();
  }

  /**
   * The fog image turned into an erasing mask (revealed = bright and
   * opaque: luminance times alpha), made once per image and size: a
   * pixel loop over a whole map is too slow to run on every move.
   */
  private revealedByImage(w: number, h: number): HTMLCanvasElement {
    if (this.imageMask && this.imageMask.width === w && this.imageMask.height === h) return this.imageMask;
    const tmp = document.createElement("canvas");
    tmp.width = w;
    tmp.height = h;
    const t = tmp.getContext("2d")!;
    t.drawImage(this.image!, 0, 0, w, h);
    const data = t.getImageData(0, 0, w, h);
    const px = data.data;
    for (let i = 0; i < px.length; i += 4) {
      const lum = (px[i] * 0.299 + px[i + 1] * 0.587 + px[i + 2] * 0.114) / 255;
      px[i + 3] = Math.round(lum * px[i + 3]);
      px[i] = px[i + 1] = px[i + 2] = 255;
    }
    t.putImageData(data, 0, 0);
    this.imageMask = tmp;
    return tmp;
  }

  /** Whether fog covers (x, y). */
  hides(x: number, y: number): boolean {
    if (!this.map?.fogOfWar || !this.texture) return false;
    const px = Math.floor(x * this.k), py = Math.floor(y * this.k);
    if (px < 0 || py < 0 || px >= this.canvas.width || py >= this.canvas.height) return true;
    return this.ctx.getImageData(px, py, 1, 1).data[3] > 128;
  }
}

/** A fog image as a URL: kept when it is one; base64 data (fogUpdated's) becomes a data URL; a path is rooted. */
export function imageSource(v: string, mayBeBase64: boolean): string {
  if (/^(data:|blob:|https?:|\/)/i.test(v)) return v;
  if (mayBeBase64 && /^[A-Za-z0-9+/=\s]+$/.test(v) && v.length > 64) return `data:image/png;base64,${v.replace(/\s/g, "")}`;
  return `/${v}`;
}
