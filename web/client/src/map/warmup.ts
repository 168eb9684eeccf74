// Work the first frame would otherwise wait for, done while the map's data
// and image download: one tiny render with every kind of shader the map
// uses (sprites, shapes, the darkness), so that WebGL compiles them now.
// On a CPU renderer a first compile blocked the first frame for a second
// or more.
import { Container, Graphics, RenderTexture, Sprite, Texture, type Renderer } from "pixi.js";

/** Renders sprites, small and large shapes and extra (the darkness's quad) once, off screen. */
export function warmUpShaders(renderer: Renderer, extra: Container): void {
  const target = RenderTexture.create({ width: 4, height: 4 });
  const scene = new Container();
  // Small shapes are batched with sprites; large ones (the darkness
  // mask's polygons, the grid) are drawn by a shader of their own.
  const large = new Graphics().rect(0, 0, 2, 2).fill(0xffffff);
  large.context.batchMode = "no-batch";
  scene.addChild(new Sprite(Texture.WHITE), new Graphics().rect(0, 0, 2, 2).fill(0xffffff), large, extra);
  try {
    renderer.render({ container: scene, target, clear: true });
  } catch {
    /* only a head start: the real frames draw the same */
  }
  scene.destroy({ children: true });
  target.destroy(true);
}
