// Work the first frame would otherwise wait for: one tiny render with
// every kind of shader the map uses (sprites, shapes, the darkness), so
// that WebGL compiles them before anything is queued to draw. On a CPU
// renderer a first compile inside the first frame blocked it for a second
// or more (each compile's answer waits for the frame's queued drawing).
// precompileShaders starts the same compiles earlier, without waiting.
import { Container, DefaultBatcher, Graphics, RenderTexture, Sprite, Texture, type Geometry, type GlProgram, type Mesh, type Renderer, type Shader } from "pixi.js";

/**
 * Renders sprites and shapes (the batcher's program) and extra (the
 * darkness's quad) once, off screen. Large shapes (a drag's path, a big
 * map's grid) have a program of their own, which precompileShaders starts
 * and warmUpLargeShapes links after the first frame: most first maps
 * never need it, the darkness's polygons being batched (darkness.ts).
 */
export function warmUpShaders(renderer: Renderer, extra: Container): void {
  const target = RenderTexture.create({ width: 4, height: 4 });
  const scene = new Container();
  // Shapes are batched with sprites: one program.
  scene.addChild(new Sprite(Texture.WHITE), new Graphics().rect(0, 0, 2, 2).fill(0xffffff), extra);
  try {
    renderer.render({ container: scene, target, clear: true });
  } catch {
    /* only a head start: the real frames draw the same */
  }
  scene.destroy({ children: true });
  target.destroy(true);
}

/** Renders one large shape off screen: PixiJS's program for large shapes compiles now. */
export function warmUpLargeShapes(renderer: Renderer): void {
  const target = RenderTexture.create({ width: 4, height: 4 });
  const large = new Graphics().rect(0, 0, 2, 2).fill(0xffffff);
  large.context.batchMode = "no-batch";
  try {
    renderer.render({ container: large, target, clear: true });
  } catch {
    /* only a head start */
  }
  large.destroy();
  target.destroy(true);
}

/**
 * Starts compiling the programs warmUpShaders will link (sprites and small
 * shapes, large shapes, and extra's), and returns at once: nothing here
 * asks WebGL for an answer, so the browser's GPU process compiles them
 * while the page goes on with its own work (the map's data, the panels,
 * the scene). The warm-up's own links of the same sources, later, then
 * wait less. The returned function frees these copies once it has run.
 */
export function precompileShaders(renderer: Renderer, extra: Mesh<Geometry, Shader>): () => void {
  const gl = (renderer as unknown as { gl?: WebGL2RenderingContext }).gl;
  if (!gl) return () => {};
  const programs: GlProgram[] = [];
  try {
    // One batcher shader serves the whole page: the renderer will use this one.
    programs.push(new DefaultBatcher({ maxTextures: renderer.limits.maxBatchableTextures }).shader.glProgram);
    const graphics = (renderer.renderPipes as unknown as { graphics?: { _adaptor?: { shader?: { glProgram?: GlProgram } } } }).graphics;
    const shape = graphics?._adaptor?.shader?.glProgram;
    if (shape) programs.push(shape);
    // PixiJS's own shader for large shapes (not a public field).
    if (extra.shader?.glProgram) programs.push(extra.shader.glProgram);
  } catch {
    /* only a head start: the warm-up compiles them anyway */
  }
  const made: WebGLProgram[] = [];
  for (const p of programs) {
    const program = gl.createProgram();
    for (const [type, source] of [[gl.VERTEX_SHADER, p.vertex], [gl.FRAGMENT_SHADER, p.fragment]] as const) {
      const shader = gl.createShader(type);
      if (!shader || !source) continue;
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      gl.attachShader(program, shader);
      gl.deleteShader(shader); // freed with the program
    }
    gl.linkProgram(program);
    made.push(program);
  }
  return () => {
    for (const p of made) gl.deleteProgram(p);
  };
}
