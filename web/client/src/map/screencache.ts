// Pans replayed, not redrawn. While the map is dragged around (or glides
// after a fling) and nothing on it changes, each frame is the last one
// moved: so the first such frame draws the whole scene once into a
// texture a margin larger than the screen, and the next ones draw only
// that texture, moved by whole device pixels. On a CPU renderer a pan
// frame of a crowded map (the image, hundreds of tokens and labels, the
// darkness) becomes one textured quad. The texture holds exactly the
// pixels a full frame would draw (the same scene, the same transform,
// shifted by whole pixels); any change to the map, a zoom, or a pan past
// the margin draws in full again. The texture is let go when pans stop.
import { Matrix, RenderTexture, Sprite, type ColorSource, type Container, type Renderer } from "pixi.js";

/** The viewport's transform: translation (CSS pixels) and scale. */
export interface View {
  x: number;
  y: number;
  scale: number;
}

/** CSS pixels drawn around the screen: how far a pan goes on one capture. */
export const cacheMargin = 256;
/** A texture not used for this long is released (memory on a tablet). */
const releaseMs = 2000;

/**
 * The saved frame is a sprite on the stage beside the scene, shown instead
 * of it for a replayed frame: the stage stays what the renderer last drew,
 * which is where PixiJS sends pointer events (a frame drawn from another
 * container made the map deaf to the pan that drew it).
 */
export class ScreenCache {
  private texture: RenderTexture | null = null;
  private sprite = new Sprite();
  private at: View = { x: 0, y: 0, scale: 0 };
  private valid = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Frames drawn from the texture (the test hook reports it). */
  replays = 0;

  /** stage is what the renderer draws; scene is the part of it the texture holds. */
  constructor(private stage: Container, private scene: Container, private margin = cacheMargin) {
    this.sprite.visible = false;
    this.sprite.eventMode = "none";
    stage.addChild(this.sprite);
  }

  /** The scene changed: the texture no longer shows it. */
  invalidate(): void {
    this.valid = false;
  }

  /**
   * Draws a frame in which only the view's translation changed since the
   * texture was drawn; false when the texture cannot (none, another
   * scale, moved past the margin).
   */
  replay(renderer: Renderer, view: View): boolean {
    if (!this.valid || !this.texture || view.scale !== this.at.scale) return false;
    const dx = view.x - this.at.x, dy = view.y - this.at.y;
    if (Math.abs(dx) > this.margin || Math.abs(dy) > this.margin) return false;
    const res = renderer.resolution;
    this.sprite.position.set(Math.round((dx - this.margin) * res) / res, Math.round((dy - this.margin) * res) / res);
    this.sprite.visible = true;
    this.scene.renderable = false;
    try {
      renderer.render({ container: this.stage });
    } finally {
      this.sprite.visible = false;
      this.scene.renderable = true;
    }
    this.replays++;
    this.keep();
    return true;
  }

  /**
   * Draws scene into the texture at view, the screen (width x height CSS
   * pixels) with the margin around it, then shows it. False when the
   * texture would exceed maxSide device pixels.
   */
  capture(renderer: Renderer, view: View, width: number, height: number, background: ColorSource, maxSide: number): boolean {
    const res = renderer.resolution;
    const w = width + 2 * this.margin, h = height + 2 * this.margin;
    if (Math.ceil(w * res) > maxSide || Math.ceil(h * res) > maxSide) return false;
    if (!this.texture || this.texture.width !== w || this.texture.height !== h || this.texture.source.resolution !== res) {
      this.texture?.destroy(true);
      this.texture = RenderTexture.create({ width: w, height: h, resolution: res });
      this.sprite.texture = this.texture;
    }
    renderer.render({ container: this.stage, target: this.texture, clear: true, clearColor: background, transform: new Matrix().translate(this.margin, this.margin) });
    this.at = { ...view };
    this.valid = true;
    return this.replay(renderer, view);
  }

  private keep(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release(), releaseMs);
  }

  /** Lets the texture go. */
  release(): void {
    clearTimeout(this.timer);
    this.valid = false;
    this.sprite.texture = RenderTexture.EMPTY;
    this.texture?.destroy(true);
    this.texture = null;
  }
}
