// Work the first frame would otherwise wait for: one tiny render with
// every kind of shader the map uses (sprites, shapes, the darkness), so
// that WebGL compiles them before anything is queued to draw. On a CPU
// renderer a first compile inside the first frame blocked it for a second
// or more (each compile's answer waits for the frame's queued drawing).
// precompileShaders starts the same compiles earlier, without waiting.
import {
  Container, DefaultBatcher, defaultValue, getAttributeInfoFromFormat, getUboData, getUniformData, GlProgramData, Graphics, mapGlToVertexFormat,
  RenderTexture, Sprite, Texture, type Geometry, type GlProgram, type Mesh, type Renderer, type Shader,
} from "pixi.js";

/**
 * Renders sprites and shapes (the batcher's program) and extra (the
 * darkness's quad) once, off screen. Large shapes (a drag's path, a big
 * map's grid) have a program of their own, which precompileShaders starts
 * and warmUpLargeShapes links after the first frame: most first maps
 * never need it, the darkness's polygons being batched (darkness.ts).
 */
export function warmUpShaders(renderer: Renderer, extra: Container): void {
  const scene = new Container();
  // Shapes are batched with sprites: one program.
  scene.addChild(new Sprite(Texture.WHITE), new Graphics().rect(0, 0, 2, 2).fill(0xffffff), extra);
  renderOffScreen(renderer, scene);
}

/** Renders one large shape off screen: PixiJS's program for large shapes compiles now. */
export function warmUpLargeShapes(renderer: Renderer): void {
  const large = new Graphics().rect(0, 0, 2, 2).fill(0xffffff);
  large.context.batchMode = "no-batch";
  renderOffScreen(renderer, large);
}

/** Renders scene once into a tiny texture, then destroys both (a warm-up's render). */
function renderOffScreen(renderer: Renderer, scene: Container): void {
  const target = RenderTexture.create({ width: 4, height: 4 });
  try {
    renderer.render({ container: scene, target, clear: true });
  } catch {
    /* only a head start: the real frames draw the same */
  }
  scene.destroy({ children: true });
  target.destroy(true);
}

/** What precompileShaders started: hand it to PixiJS (adopt) once the renderer needs it, or free it. */
export interface Precompiled {
  /**
   * Gives PixiJS the programs whose link has finished meanwhile (the
   * batcher's and extra's, or with large true the large shapes' one), as
   * if it had linked them itself, so that it does not compile them anew.
   * A program that failed or would need other attribute places is left to
   * PixiJS (and freed).
   */
  adopt(large: boolean): void;
  /** Frees what was not adopted. */
  release(): void;
}

// The GLSL ES 3.00 marker PixiJS looks for (generateProgram.ts).
const es300 = /^[ \t]*#[ \t]*version[ \t]+300[ \t]+es[ \t]*$/m;

/** The attribute names a vertex shader declares, in PixiJS's order for GLSL ES 1.00 (sorted). */
function declaredAttributes(vertex: string): string[] {
  const names = [...vertex.matchAll(/^[ \t]*(?:in|attribute)[ \t]+(?:(?:lowp|mediump|highp)[ \t]+)?\w+[ \t]+(\w+)[ \t]*;/gm)].map((m) => m[1]);
  return names.sort((a, b) => (a > b ? 1 : -1));
}

/**
 * Starts compiling the programs warmUpShaders links (sprites and shapes,
 * large shapes, and extra's) and returns at once: nothing here asks WebGL
 * for an answer, so the browser's GPU process compiles them while the
 * page goes on with its own work (the map's data, the panels, the scene).
 * The attributes get the places PixiJS would give them before the link,
 * so that adopt() can hand PixiJS the linked programs as they are:
 * PixiJS itself would link each again, waiting for every step.
 */
export function precompileShaders(renderer: Renderer, extra: Mesh<Geometry, Shader>): Precompiled {
  const gl = (renderer as unknown as { gl?: WebGL2RenderingContext }).gl;
  const none: Precompiled = { adopt() {}, release() {} };
  if (!gl) return none;
  const programs: { p: GlProgram; large: boolean }[] = [];
  try {
    // One batcher shader serves the whole page: the renderer will use this one.
    programs.push({ p: new DefaultBatcher({ maxTextures: renderer.limits.maxBatchableTextures }).shader.glProgram, large: false });
    if (extra.shader?.glProgram) programs.push({ p: extra.shader.glProgram, large: false });
    // PixiJS's own shader for large shapes (not a public field), last: the
    // GPU process compiles in this order, and the first frame needs the others.
    const graphics = (renderer.renderPipes as unknown as { graphics?: { _adaptor?: { shader?: { glProgram?: GlProgram } } } }).graphics;
    const shape = graphics?._adaptor?.shader?.glProgram;
    if (shape) programs.push({ p: shape, large: true });
  } catch {
    return none; // only a head start: the warm-up compiles them anyway
  }
  let made: { glProgram: GlProgram; program: WebGLProgram; sorted: boolean; large: boolean }[] = [];
  for (const { p, large } of programs) {
    if (!p.vertex || !p.fragment) continue;
    const program = gl.createProgram();
    for (const [type, source] of [[gl.VERTEX_SHADER, p.vertex], [gl.FRAGMENT_SHADER, p.fragment]] as const) {
      const shader = gl.createShader(type);
      if (!shader) continue;
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      gl.attachShader(program, shader);
      gl.deleteShader(shader); // freed with the program
    }
    const sorted = !es300.test(p.vertex);
    if (sorted) {
      for (const [i, name] of declaredAttributes(p.vertex).entries()) gl.bindAttribLocation(program, i, name);
    }
    gl.linkProgram(program);
    made.push({ glProgram: p, program, sorted, large });
  }
  const shaders = (renderer as unknown as { shader?: { _programDataHash?: Record<string, GlProgramData> } }).shader;
  return {
    adopt(large) {
      for (const m of made.filter((m) => m.large === large)) {
        const hash = shaders?._programDataHash;
        const key = (m.glProgram as unknown as { _key: string })._key;
        const data = hash && !hash[key] ? programData(gl, m.glProgram, m.program, m.sorted) : null;
        if (data && hash) hash[key] = data;
        else gl.deleteProgram(m.program);
      }
      made = made.filter((m) => m.large !== large);
    },
    release() {
      for (const m of made) gl.deleteProgram(m.program);
      made = [];
    },
  };
}

/**
 * What PixiJS's generateProgram makes of a linked program (its attributes,
 * uniforms and their places), for a program linked here; null when the
 * link failed or an attribute is not where PixiJS would put it (PixiJS
 * then makes the program itself).
 */
function programData(gl: WebGL2RenderingContext, p: GlProgram, program: WebGLProgram, sorted: boolean): GlProgramData | null {
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) return null;
  const attributes: Record<string, { location: number; format: ReturnType<typeof mapGlToVertexFormat>; stride: number; offset: number; instance: boolean; start: number }> = {};
  const names: string[] = [];
  const count = gl.getProgramParameter(program, gl.ACTIVE_ATTRIBUTES) as number;
  for (let i = 0; i < count; i++) {
    const a = gl.getActiveAttrib(program, i);
    if (!a || a.name.startsWith("gl_")) continue;
    const format = mapGlToVertexFormat(gl, a.type);
    attributes[a.name] = { location: 0, format, stride: getAttributeInfoFromFormat(format).stride, offset: 0, instance: false, start: 0 };
    names.push(a.name);
  }
  if (sorted) names.sort((a, b) => (a > b ? 1 : -1));
  for (let i = 0; i < names.length; i++) {
    const at = gl.getAttribLocation(program, names[i]);
    if (sorted && at !== i) return null; // PixiJS would place it elsewhere
    attributes[names[i]].location = at;
  }
  const internal = p as unknown as { _attributeData: unknown; _uniformData: Record<string, { type: string; size: number }>; _uniformBlockData: unknown };
  internal._attributeData = attributes;
  internal._uniformData = getUniformData(program, gl);
  internal._uniformBlockData = getUboData(program, gl);
  const uniformData: Record<string, { location: WebGLUniformLocation | null; value: unknown }> = {};
  for (const name in internal._uniformData) {
    const u = internal._uniformData[name];
    uniformData[name] = { location: gl.getUniformLocation(program, name), value: defaultValue(u.type, u.size) };
  }
  return new GlProgramData(program, uniformData as never);
}
