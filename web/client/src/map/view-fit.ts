// Where the map sits when a page opens (and on Fit): in the part of the
// screen no panel covers, so the party is never under the initiative or
// the chat at load. Pure geometry, so that it can be tested without a
// browser; the renderer measures the elements and applies the result.

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The part of a w x h box (the map element) left free by the covering
 * rectangles (panels, bars), in the box's coordinates. A cover hugging the
 * left or right edge (not spanning most of the width) takes that side; one
 * spanning the width takes the top or the bottom, whichever its centre is
 * nearer. A cover over most of both ways (a phone's open sheet) is not
 * avoided: there would be nothing left to fit into. When what is left is
 * too small to use, the whole box is returned.
 */
export function freeArea(w: number, h: number, covers: Rect[]): Rect {
  const out: Rect = { left: 0, top: 0, right: w, bottom: h };
  for (const c of covers) {
    const l = Math.max(0, c.left), r = Math.min(w, c.right), t = Math.max(0, c.top), b = Math.min(h, c.bottom);
    if (r - l <= 0 || b - t <= 0) continue;
    const wide = r - l > w * 0.6, tall = b - t > h * 0.6;
    if (wide && tall) continue;
    if (!wide && l <= w * 0.1) out.left = Math.max(out.left, r);
    else if (!wide && r >= w * 0.9) out.right = Math.min(out.right, l);
    else if (wide && (t + b) / 2 < h / 2) out.top = Math.max(out.top, b);
    else if (wide) out.bottom = Math.min(out.bottom, t);
  }
  if (out.right - out.left < w * 0.3 || out.bottom - out.top < h * 0.3) return { left: 0, top: 0, right: w, bottom: h };
  return out;
}

/** The smallest grid cell, in CSS pixels, that the fit aims for. */
const readableCell = 24;

export interface View {
  zoom: number;
  centerX: number;
  centerY: number;
}

/**
 * The view (zoom and the map point at the screen's centre) that fits a map
 * of mapW x mapH into the free part of a screenW x screenH box. When a grid
 * cell (cell, in map units) would come out too small to read there (a
 * phone), the map fills the free part instead, with no empty band beside
 * it, and the party (its bounding box in map units, when there is one) in
 * the middle as far as the map's edges allow; zoomed out further only as
 * far as the party needs to fit, never under a readable cell.
 */
export function fitView(mapW: number, mapH: number, screenW: number, screenH: number, free: Rect, party: Rect | null, cell = 0): View {
  const margin = 1.04;
  const fw = free.right - free.left, fh = free.bottom - free.top;
  const inFree = Math.min(fw / (mapW * margin), fh / (mapH * margin));
  let zoom = inFree;
  let px = mapW / 2, py = mapH / 2;
  // A grid cell under about 24 px (a phone's whole-map fit) leaves tokens
  // too small to tell apart or to touch, and the map a strip in the middle
  // of a black screen.
  const readable = cell > 0 ? readableCell / cell : 0;
  if (inFree < readable) {
    const cover = Math.max(fw / mapW, fh / mapH);
    let partyFits = Infinity;
    if (party) {
      const pad = 1.3;
      const pw = Math.max(1, party.right - party.left), ph = Math.max(1, party.bottom - party.top);
      partyFits = Math.min(fw / (pw * pad + 140), fh / (ph * pad + 140));
      px = (party.left + party.right) / 2;
      py = (party.top + party.bottom) / 2;
    }
    zoom = Math.max(readable, Math.min(cover, partyFits));
    // Keep the map's edges out of the free part where the map is larger.
    px = within(px, fw / 2 / zoom, mapW - fw / 2 / zoom, mapW / 2);
    py = within(py, fh / 2 / zoom, mapH - fh / 2 / zoom, mapH / 2);
  }
  // The map point px, py shows at the free part's centre.
  const sx = (free.left + free.right) / 2 - screenW / 2, sy = (free.top + free.bottom) / 2 - screenH / 2;
  return { zoom, centerX: px - sx / zoom, centerY: py - sy / zoom };
}

/** v kept between lo and hi; mid when there is no room between them. */
function within(v: number, lo: number, hi: number, mid: number): number {
  return lo > hi ? mid : Math.min(hi, Math.max(lo, v));
}
