// Textures no larger than the device can hold. A WebGL texture wider or
// taller than MAX_TEXTURE_SIZE does not upload (the map stays blank), and
// tablets that take one near their limit have crashed the page in other
// tools. Images past the limit are drawn once onto a canvas that fits,
// with a texture resolution that keeps their size on the map: the map
// shows them a little softer, never missing.
import { CanvasSource, Texture } from "pixi.js";

let limit = 4096;
const capped = new WeakMap<Texture, Texture>();

/** Sets the largest texture side (the renderer reads it from WebGL at start). */
export function setTextureLimit(side: number): void {
  if (side >= 64) limit = Math.floor(side);
}

export function textureLimit(): number {
  return limit;
}

/** tex itself when it fits the device, else a copy that does (one per texture). */
export function capTexture(tex: Texture): Texture {
  const src = tex.source;
  const w = src.pixelWidth, h = src.pixelHeight;
  if (w <= limit && h <= limit) return tex;
  const done = capped.get(tex);
  if (done) return done;
  const k = limit / Math.max(w, h);
  const c = document.createElement("canvas");
  c.width = Math.max(1, Math.min(limit, Math.round(w * k)));
  c.height = Math.max(1, Math.min(limit, Math.round(h * k)));
  const ctx = c.getContext("2d")!;
  ctx.imageSmoothingQuality = "high";
  try {
    ctx.drawImage(src.resource as CanvasImageSource, 0, 0, c.width, c.height);
  } catch {
    return tex; // not drawable (a video frame not ready): left as it is
  }
  const out = new Texture({ source: new CanvasSource({ resource: c, resolution: (src.resolution * c.width) / w, scaleMode: "linear" }) });
  capped.set(tex, out);
  return out;
}
