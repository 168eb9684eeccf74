// Door icons: one sprite per door, kept from one redraw to the next. A
// vision change (every step of a party token's drag) used to destroy and
// rebuild every icon as new Graphics: their triangles built and uploaded
// again, and the map's draw instructions rebuilt because the scene's
// structure changed. Now a redraw only changes what differs (texture,
// place, shown or not), and icons are shared textures drawn once per
// state and size on a canvas (smooth edges without multisampling).
import { CanvasSource, Container, Sprite, Texture, type FederatedPointerEvent } from "pixi.js";
import { doorMidpoints } from "./objects";
import type { Wall } from "../types";

export interface Door {
  id: string;
  state: string;
  x: number;
  y: number;
}

export interface DoorOptions {
  /** Whether each door is shown (the party sees it; the GM sees all). */
  shown(d: Door): boolean;
  /** Whether the user may toggle doors now. */
  usable: boolean;
  /** GM mode: taps go to onTap (which also locks), every door answers. */
  gm: boolean;
  /** A tap on a door the user may use. */
  onTap(d: Door, shiftKey: boolean): void;
}

const resolution = 2; // texture pixels per map pixel: crisp up to a zoom of 2
const icons = new Map<string, Texture>();

/** The icon of a door state at size map pixels: a rounded square, green open, brown closed, red locked, with its leaf. */
export function doorTexture(state: string, size: number): Texture {
  const key = `${state}|${size}`;
  let t = icons.get(key);
  if (t) return t;
  const pad = 2;
  const c = document.createElement("canvas");
  c.width = c.height = Math.ceil((size + 2 * pad) * resolution);
  const ctx = c.getContext("2d")!;
  ctx.scale(resolution, resolution);
  ctx.translate(size / 2 + pad, size / 2 + pad);
  const r = size * 0.2, h = size / 2;
  ctx.beginPath();
  ctx.roundRect(-h, -h, size, size, r);
  ctx.fillStyle = state === "open" ? "#2e9d4f" : state === "locked" ? "#b3261e" : "#8a5a2b";
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = "rgba(255, 255, 255, 0.9)";
  ctx.stroke();
  const k = size * 0.3;
  ctx.beginPath();
  if (state === "open") {
    ctx.moveTo(-k, k);
    ctx.lineTo(k * 0.2, -k);
  } else {
    ctx.moveTo(-k, 0);
    ctx.lineTo(k, 0);
  }
  ctx.lineWidth = 3;
  ctx.strokeStyle = "#ffffff";
  ctx.stroke();
  if (state === "locked") {
    ctx.beginPath();
    ctx.arc(0, k * 0.55, size * 0.08, 0, 2 * Math.PI);
    ctx.fillStyle = "#ffffff";
    ctx.fill();
  }
  t = new Texture({ source: new CanvasSource({ resource: c, resolution, autoGenerateMipmaps: true, scaleMode: "linear" }) });
  icons.set(key, t);
  return t;
}

interface DoorSprite extends Sprite {
  door: Door;
}

export class DoorLayer extends Container {
  private sprites = new Map<string, DoorSprite>();
  private options: DoorOptions | null = null;

  /** Brings the icons up to date with the walls; size is the icon's side in map pixels. */
  update(walls: Wall[] | undefined, size: number, options: DoorOptions): void {
    this.options = options;
    const seen = new Set<string>();
    for (const d of doorMidpoints(walls)) {
      seen.add(d.id);
      let s = this.sprites.get(d.id);
      if (!s) {
        s = new Sprite() as DoorSprite;
        s.anchor.set(0.5);
        s.on("pointertap", (e: FederatedPointerEvent) => this.tap(s!, e));
        this.sprites.set(d.id, s);
        this.addChild(s);
      }
      s.door = d;
      const tex = doorTexture(d.state, size);
      if (s.texture !== tex) s.texture = tex;
      if (s.x !== d.x || s.y !== d.y) s.position.set(d.x, d.y);
      const shown = options.shown(d);
      if (s.visible !== shown) s.visible = shown;
      const alpha = options.usable ? 1 : 0.75;
      if (s.alpha !== alpha) s.alpha = alpha;
      const active = options.gm || (options.usable && d.state !== "locked");
      const mode = active ? "static" : "none";
      if (s.eventMode !== mode) s.eventMode = mode;
      s.cursor = active ? "pointer" : "default";
      // Keyboard users reach doors too: Pixi's accessibility layer puts a
      // button over each when Tab is pressed; Enter taps it.
      s.accessible = active && !options.gm;
      s.accessibleType = "button";
      s.accessibleTitle = d.state === "open" ? "Close the door" : "Open the door";
    }
    for (const [id, s] of this.sprites) {
      if (seen.has(id)) continue;
      s.destroy();
      this.sprites.delete(id);
    }
  }

  /** Removes every icon (no map). */
  clear(): void {
    for (const s of this.sprites.values()) s.destroy();
    this.sprites.clear();
  }

  private tap(s: DoorSprite, e: FederatedPointerEvent): void {
    if (!this.options) return;
    e.stopPropagation();
    this.options.onTap(s.door, e.shiftKey);
  }
}
