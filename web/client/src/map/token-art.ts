// The disc and the ring of a token, drawn once per look (colour and
// footprint) into a shared texture, and shown as one sprite each. As
// Graphics they were hundreds of thin triangles a token (a fill and two
// strokes), which a CPU renderer (SwiftShader, weak phone GPUs) pays for
// on every frame: with 500 tokens, three quarters of a pan frame. Sprites
// sharing a texture are one batch, and the antialiased edges come from
// the canvas that drew them, not from multisampling every frame.
import { CanvasSource, Texture } from "pixi.js";

/** Texture pixels per map pixel: crisp up to a zoom of 2; mipmaps keep zoomed-out tokens smooth. */
const resolution = 2;
const pad = 2; // map pixels of clear margin, so that filtering never clips the outer edge
const cache = new Map<string, Texture>();

function hex(color: number, alpha: number): string {
  return `rgba(${(color >> 16) & 255}, ${(color >> 8) & 255}, ${color & 255}, ${alpha})`;
}

function texture(key: string, w: number, h: number, draw: (ctx: CanvasRenderingContext2D) => void): Texture {
  let t = cache.get(key);
  if (t) return t;
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil((w + 2 * pad) * resolution);
  canvas.height = Math.ceil((h + 2 * pad) * resolution);
  const ctx = canvas.getContext("2d")!;
  ctx.scale(resolution, resolution);
  ctx.translate(w / 2 + pad, h / 2 + pad);
  draw(ctx);
  t = new Texture({ source: new CanvasSource({ resource: canvas, resolution, autoGenerateMipmaps: true, scaleMode: "linear" }) });
  cache.set(key, t);
  return t;
}

function ellipse(ctx: CanvasRenderingContext2D, rx: number, ry: number): void {
  ctx.beginPath();
  ctx.ellipse(0, 0, Math.max(0, rx), Math.max(0, ry), 0, 0, Math.PI * 2);
}

/**
 * A disc filling a w x h footprint: the role colour, inside a faint white
 * rim (as the Graphics were: ellipse w/2 - 2, stroke 2 px white at 0.35).
 * Textures are centred on the token (anchor 0.5), a little larger than it.
 */
export function discTexture(color: number, w: number, h: number): Texture {
  return texture(`disc|${color}|${w}|${h}`, w, h, (ctx) => drawDisc(ctx, color, w, h));
}

/** The ring around a footprint: 3 px of the role colour on ellipse w/2 - 1.5. */
export function ringTexture(color: number, w: number, h: number): Texture {
  return texture(`ring|${color}|${w}|${h}`, w, h, (ctx) => drawRing(ctx, color, w, h));
}

/**
 * The disc with the ring drawn over it, for a token that shows nothing
 * between the two (no artwork, not scaled, not faded): one sprite instead
 * of two, half the pixels to blend on a crowded map.
 */
export function discAndRingTexture(color: number, w: number, h: number): Texture {
  return texture(`disc+ring|${color}|${w}|${h}`, w, h, (ctx) => {
    drawDisc(ctx, color, w, h);
    drawRing(ctx, color, w, h);
  });
}

function drawDisc(ctx: CanvasRenderingContext2D, color: number, w: number, h: number): void {
  ellipse(ctx, w / 2 - 2, h / 2 - 2);
  ctx.fillStyle = hex(color, 1);
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = hex(0xffffff, 0.35);
  ctx.stroke();
}

function drawRing(ctx: CanvasRenderingContext2D, color: number, w: number, h: number): void {
  ellipse(ctx, w / 2 - 1.5, h / 2 - 1.5);
  ctx.lineWidth = 3;
  ctx.strokeStyle = hex(color, 1);
  ctx.stroke();
}
