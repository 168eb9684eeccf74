// The darkness of line of sight, drawn from the areas vision.ts computes.
// Three layers darken the map, stacked in this order:
//   - unlit: everywhere outside dim and bright light;
//   - undim: everywhere outside bright light (with unlit: `dark` in all;
//     undim alone, in dim light, half of it);
//   - blind: everywhere outside the party's sight (black, or the fog's
//     0.7 when fog of war remembers what was seen).
// A light tint is added where lights shine, under the darkness.
//
// How, and why so (a CPU renderer, SwiftShader or a weak phone GPU, pays
// for every pixel of every pass):
//   - The polygons are baked once per change into a small mask texture
//     (at most maxSide texels a side), one polygon set per channel: red =
//     in sight, green = in dim or bright light, blue = in bright light.
//     Each set is drawn with additive blending, so overlapping polygons
//     saturate into their union with no stencil and no full-map fill: a
//     bake costs the polygons' area in one pass.
//   - Each frame, one quad (the map and 4000 px around it) turns the mask
//     into the three layers' colour in its fragment shader, with exactly
//     the "over" compositing of the layers; outside the map the mask is
//     empty, so all three layers apply there, as they always did.
//   - The lights' tints are baked beside it, at the same size, into a
//     second small texture (each light's colour added), and the same quad
//     adds them under the darkness: drawn directly, a tint was a pass of
//     its own over its lights' areas each frame (a fifth of a drag frame).
//   - Nothing is baked when neither the polygons nor the tints changed.
//   - The standalone lights' share (VisionAreas.lit), when its polygons
//     have more than litApartPoints points, is baked once, into textures
//     of its own at the full mask's size, when it changes; each bake of
//     the mask then draws those textures and the tokens' polygons only: a
//     drag changes one token's polygons, and the 40 lights of a busy map
//     cost each of its steps a second and more of tessellation and upload
//     when they were drawn anew each time. A few lights are drawn with
//     the tokens' polygons (two textures fewer to hold).
//   - The polygons are drawn as triangle fans from the point each was
//     seen from (fan.ts), not tessellated in general.
//   - While the polygons keep changing (a party token dragged, a stream
//     of moves), the mask is baked at half its side, a quarter of the
//     texels: softer shadow edges while they move, baked again at full
//     size once they rest (settleMs after the last change).
import { Container, Geometry, Mesh, RenderTexture, Shader, Sprite, Texture, type Renderer } from "pixi.js";
import type { MapData } from "../types";
import { FanFill, TintFill } from "./fan";
import { samePolys, type VisionAreas } from "./vision";

const pad = 4000; // darkness reaches past the map edges when panned out
/**
 * Changes closer together than this, or in frames one after the other
 * (a slow page draws seldom), are a stream: baked at half size.
 */
export const streamMs = 250;
/**
 * After the last change of a stream, the mask is baked again at full size.
 * Not sooner: on a CPU renderer that bake and its frame keep the browser's
 * GPU process busy for 100-200 ms, and a drag begun meanwhile (a player
 * moving a second token, or the same one on) waited for them; at 250 ms
 * each drag's first move took twice the others' time (the floor benchmark,
 * tests/perf/browser_perf_floor_test.go). Edges a little soft for 0.6 s are not
 * seen; a hitch at the start of a drag is.
 */
export const settleMs = 600;
/** The lights' polygons are baked apart past this many points in all (see above). */
export const litApartPoints = 4000;

// Written in GLSL ES 3.00's words. With WebGL 2 the sources say so
// (#version 300 es): PixiJS then links the program once. Without that
// line, PixiJS turns the words into GLSL ES 1.00's (the only choice on
// WebGL 1) and links every such program twice, the second time to fix its
// attributes' places, which cost a CPU renderer's start 30-80 ms.
const vertexBody = `
in vec2 aPosition;
out vec2 vUV;
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform mat3 uTransformMatrix;
uniform vec2 uUVScale;
void main() {
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(aPosition, 1.0)).xy, 0.0, 1.0);
  vUV = aPosition * uUVScale;
}`;

// The layers' premultiplied colours composited "over" one another, as
// the render-texture bakes of the layers did.
const fragmentBody = `
precision mediump float;
in vec2 vUV;
uniform sampler2D uMask;
uniform sampler2D uTint;
uniform vec4 uLayers; // alphas: unlit, undim, blind; unused
uniform vec4 uDark;   // rgb: colour of unlit and undim (blind is black)
out vec4 finalColor;
void main() {
  vec3 m = vec3(0.0);
  vec3 tint = vec3(0.0); // premultiplied, added under the darkness
  if (vUV.x >= 0.0 && vUV.x <= 1.0 && vUV.y >= 0.0 && vUV.y <= 1.0) {
    m = texture(uMask, vUV).rgb;
    tint = texture(uTint, vUV).rgb;
  }
  float a1 = uLayers.x * (1.0 - m.g);
  float a2 = uLayers.y * (1.0 - m.b);
  float a3 = uLayers.z * (1.0 - m.r);
  vec3 c = uDark.rgb * a1;
  float a = a1;
  c = uDark.rgb * a2 + c * (1.0 - a2);
  a = a2 + a * (1.0 - a2);
  c = c * (1.0 - a3);
  a = a3 + a * (1.0 - a3);
  finalColor = vec4(c + tint * (1.0 - a), a);
}`;

/** The darkness program's sources for a WebGL version. */
function darknessProgram(webGLVersion: number): { vertex: string; fragment: string; name: string } {
  const version = webGLVersion >= 2 ? "#version 300 es\n" : "";
  return { vertex: version + vertexBody, fragment: version + fragmentBody, name: "companion-darkness" };
}

/** A mask texture, its tint texture, and how map points map onto them. */
interface Mask {
  texture: RenderTexture;
  tint: RenderTexture;
  /** Texels per map pixel. */
  k: number;
  /** Map pixels to texture coordinates. */
  uvScale: Float32Array;
  /** The version of the tints (VisionLayer.tintVersion) the tint texture holds (-1: none baked yet). */
  tints: number;
}

function makeMask(mw: number, mh: number, side: number): Mask {
  const k = Math.min(1, side / Math.max(1, mw, mh));
  const tw = Math.max(1, Math.ceil(mw * k)), th = Math.max(1, Math.ceil(mh * k));
  const texture = RenderTexture.create({ width: tw, height: th, resolution: 1 });
  const tint = RenderTexture.create({ width: tw, height: th, resolution: 1 });
  return { texture, tint, k, uvScale: new Float32Array([k / tw, k / th]), tints: -1 };
}

/** One share of the polygons: sight (red), dim or bright light (green), bright light (blue), and the tints. */
class Share {
  readonly mask = new Container();
  readonly tint = new TintFill();
  private sight = new FanFill();
  private dim = new FanFill();
  private bright = new FanFill();
  private drawn: VisionAreas["lit"] | null = null;

  constructor() {
    this.mask.addChild(this.sight, this.dim, this.bright);
    for (const c of [this.sight, this.dim, this.bright, this.tint]) c.blendMode = "add";
  }

  /** Draws share s (the polygons, and the tints when tints is true); false when it is what is drawn already. */
  set(s: VisionAreas["lit"]): { mask: boolean; tints: boolean } {
    const d = this.drawn;
    const mask = !d || !samePolys(d.sight, s.sight) || !samePolys(d.dim, s.dim) || !samePolys(d.bright, s.bright);
    const tints = !d || !sameTints(d.tints, s.tints);
    this.drawn = s;
    if (mask) {
      this.sight.set(s.sight, 0xff0000);
      this.dim.set(s.dim.concat(s.bright), 0x00ff00);
      this.bright.set(s.bright, 0x0000ff);
    }
    if (tints) this.tint.set(s.tints.map((t) => ({ poly: t.poly, color: t.color, alpha: Math.min(0.35, t.alpha * 0.35) })));
    return { mask, tints };
  }

  forget(): void {
    this.drawn = null;
  }
}

/** The tokens' share of areas: what is not the lights'. */
function ownShare(a: VisionAreas): VisionAreas["lit"] {
  const cut = (all: number[][], lit: number[][]) => all.slice(0, all.length - lit.length);
  return { sight: cut(a.sight, a.lit.sight), dim: cut(a.dim, a.lit.dim), bright: cut(a.bright, a.lit.bright), tints: a.tints.slice(0, a.tints.length - a.lit.tints.length) };
}

export class VisionLayer extends Container {
  private tintScene = new Container(); // rendered into the tint texture
  private maskScene = new Container(); // rendered into the mask, never shown
  private own = new Share(); // the tokens' polygons, drawn into each bake
  private lit = new Share(); // the lights', baked into the lights' textures
  private litMask: RenderTexture | null = null; // at the full mask's size, null while no light shines
  private litTint: RenderTexture | null = null;
  private litSprites = { mask: new Sprite(), tint: new Sprite() };
  private litDue = false; // the lights' textures to bake before the next mask
  private litK = 1; // the lights' textures' texels per map pixel
  private tintVersion = 0; // counts changes of either share's tints
  private full: Mask | null = null;
  private motion: Mask | null = null; // half the side, while polygons stream
  private shown: Mask | null = null; // what the quad samples now
  private shader: Shader | null = null;
  private quad: Mesh<Geometry, Shader> | null = null;
  private due: Mask | null = null; // the mask to bake before the next frame
  private lastChange = -Infinity;
  private framesSinceChange = Infinity; // frames drawn since the polygons last changed
  private layersKey = ""; // what the masks, quad and uniforms were made for
  private drawnDarkness: VisionAreas | null = null; // the areas the masks were last drawn from
  areas: VisionAreas | null = null;
  /** The mask's longest side in texels; lowered on slow devices (quality.ts). */
  maxSide = 1024;
  /** The device's largest texture side (WebGL MAX_TEXTURE_SIZE). */
  maxTextureSize = 4096;
  /** The renderer's WebGL version (the shader's language follows it). */
  webGLVersion = 1;

  constructor() {
    super();
    // Drawn by the batcher however many points the polygons have (fan.ts):
    // large shapes have a program of their own, and not compiling it saved
    // a first map 30-40 ms on a CPU renderer.
    for (const s of [this.litSprites.mask, this.litSprites.tint]) {
      s.blendMode = "add";
      s.visible = false;
    }
    this.maskScene.addChild(this.litSprites.mask, this.lit.mask, this.own.mask);
    this.tintScene.addChild(this.litSprites.tint, this.lit.tint, this.own.tint);
  }

  /** Whether the lights' share is baked into textures of its own now (the test hook reports it). */
  get lightsApart(): boolean {
    return this.litMask !== null;
  }

  /** A tiny quad with the darkness shader, for the renderer's warm-up render (compiles it early). */
  warmUpMesh(): Mesh<Geometry, Shader> {
    const shader = Shader.from({
      gl: darknessProgram(this.webGLVersion),
      resources: {
        uMask: Texture.WHITE.source,
        uTint: Texture.WHITE.source,
        darkness: {
          uLayers: { value: new Float32Array(4), type: "vec4<f32>" },
          uDark: { value: new Float32Array(4), type: "vec4<f32>" },
          uUVScale: { value: new Float32Array([1, 1]), type: "vec2<f32>" },
        },
      },
    });
    return new Mesh({ geometry: quadGeometry(0, 0, 2, 2), shader });
  }

  /**
   * Records what to draw for areas at time now (the mask is baked later, by
   * bake()). dragging: a drag is moving a token now, so this change starts
   * (or continues) a stream even when it is the first: baked at full size,
   * each drag's first move cost page B 2-4 times its later ones.
   */
  draw(a: VisionAreas, map: MapData, blindAlpha = 1, now = performance.now(), dragging = false): void {
    this.areas = a;
    this.visible = a.lineOfSight;
    if (!a.lineOfSight) {
      this.due = null;
      this.layersKey = "";
      this.drawnDarkness = null;
      this.own.forget();
      this.lit.forget();
      return;
    }
    const mw = map.width ?? 0, mh = map.height ?? 0;
    const dark = (1 - a.daylight) * 0.9;
    const side = Math.max(16, Math.min(this.maxSide, this.maxTextureSize));
    const key = `${mw}x${mh} ${dark} ${blindAlpha} ${side}`;
    if (key !== this.layersKey) {
      this.layersKey = key;
      this.drawnDarkness = null;
      this.own.forget();
      this.lit.forget();
      this.makeLayers(mw, mh, dark, blindAlpha, side);
    }
    // Each share and its tints are kept (and baked) apart: a drag of a
    // token that carries no light changes the mask, not the tints, and a
    // bake then skips the tint texture's pass (bake() compares what each
    // texture holds); the lights' share changes with the lights only.
    const lit = this.lit.set(a.lit);
    const own = this.own.set(ownShare(a));
    if (lit.tints || own.tints) this.tintVersion++;
    if (lit.mask || lit.tints) this.litChanged(a.lit);
    const darker = this.drawnDarkness === null || this.drawnDarkness.daylight !== a.daylight;
    this.drawnDarkness = a;
    if (!lit.mask && !lit.tints && !own.mask && !own.tints && !darker) return;
    const streaming = dragging || now - this.lastChange < streamMs || this.framesSinceChange <= 1;
    this.lastChange = now;
    this.framesSinceChange = 0;
    this.due = streaming ? this.motion : this.full;
  }

  /**
   * The lights' share changed: with many points, their textures are made
   * (at the full mask's size) and baked before the next mask, the share
   * drawn only into them; else the share is drawn into each mask.
   */
  private litChanged(lit: VisionAreas["lit"]): void {
    let points = 0;
    for (const list of [lit.sight, lit.dim, lit.bright]) for (const p of list) points += p.length / 2;
    const full = this.full;
    if (points <= litApartPoints || !full) {
      this.releaseLit();
      this.maskScene.addChildAt(this.lit.mask, 1);
      this.tintScene.addChildAt(this.lit.tint, 1);
      return;
    }
    this.lit.mask.removeFromParent();
    this.lit.tint.removeFromParent();
    if (!this.litMask || this.litMask.width !== full.texture.width || this.litMask.height !== full.texture.height) {
      this.releaseLit();
      this.litMask = RenderTexture.create({ width: full.texture.width, height: full.texture.height, resolution: 1 });
      this.litTint = RenderTexture.create({ width: full.texture.width, height: full.texture.height, resolution: 1 });
      this.litSprites.mask.texture = this.litMask;
      this.litSprites.tint.texture = this.litTint;
    }
    this.litK = full.k;
    this.litDue = true;
  }

  private releaseLit(): void {
    for (const s of [this.litSprites.mask, this.litSprites.tint]) {
      s.visible = false;
      s.texture = Texture.EMPTY;
    }
    this.litMask?.destroy(true);
    this.litTint?.destroy(true);
    this.litMask = this.litTint = null;
    this.litDue = false;
  }

  /** The masks, the quad and the layers' alphas for a map size and light. */
  private makeLayers(mw: number, mh: number, dark: number, blindAlpha: number, side: number): void {
    const old = [this.full, this.motion]; // destroyed once the shader holds the new ones
    this.full = makeMask(mw, mh, side);
    this.motion = makeMask(mw, mh, Math.max(16, Math.floor(side / 2)));
    this.shown = this.full;
    // unlit + undim stack to `dark`; undim alone (dim light) gives half of it.
    const half = dark / 2;
    const outer = dark > 0 ? 1 - (1 - dark) / (1 - half) : 0;
    const layers = new Float32Array([outer, half, blindAlpha, 0]);
    const colour = new Float32Array([0x05 / 255, 0x06 / 255, 0x0a / 255, 1]);
    if (!this.shader) {
      this.shader = Shader.from({
        gl: darknessProgram(this.webGLVersion),
        resources: {
          uMask: this.full.texture.source,
          uTint: this.full.tint.source,
          darkness: {
            uLayers: { value: layers, type: "vec4<f32>" },
            uDark: { value: colour, type: "vec4<f32>" },
            uUVScale: { value: this.full.uvScale, type: "vec2<f32>" },
          },
        },
      });
      const x0 = -pad, y0 = -pad, x1 = mw + pad, y1 = mh + pad;
      this.quad = new Mesh({ geometry: quadGeometry(x0, y0, x1, y1), shader: this.shader });
      this.addChild(this.quad);
    } else {
      const u = this.shader.resources.darkness;
      u.uniforms.uLayers = layers;
      u.update();
      this.show(this.full);
      const was = this.quad!.geometry;
      this.quad!.geometry = quadGeometry(-pad, -pad, mw + pad, mh + pad);
      was.destroy();
    }
    for (const m of old) {
      m?.texture.destroy(true);
      m?.tint.destroy(true);
    }
  }

  /** Points the quad at mask m. */
  private show(m: Mask): void {
    this.shown = m;
    if (!this.shader) return;
    this.shader.resources.uMask = m.texture.source;
    this.shader.resources.uTint = m.tint.source;
    const u = this.shader.resources.darkness;
    u.uniforms.uUVScale = m.uvScale;
    u.update();
  }

  /** The full mask's size in texels (the test hook reports it). */
  get maskSize(): { width: number; height: number } {
    return { width: this.full?.texture.width ?? 0, height: this.full?.texture.height ?? 0 };
  }

  /** Masks baked so far (the test hook reports it: which bake came first after a change). */
  bakes = 0;

  /** The longest side of the mask the quad shows now, in texels. */
  get shownSide(): number {
    return this.shown ? Math.max(this.shown.texture.width, this.shown.texture.height) : 0;
  }

  /** Whether a half-size mask shows and the polygons have rested long enough to bake it at full size. */
  needsSettle(now: number): boolean {
    return !!this.full && this.shown !== this.full && !this.due && now - this.lastChange >= settleMs;
  }

  /** Whether a half-size mask shows (a full bake will follow). */
  get settling(): boolean {
    return !!this.full && this.shown !== this.full;
  }

  /** Bakes the mask when draw() changed it, or at full size once a stream rested; before a frame. */
  bake(renderer: Renderer, now = performance.now()): void {
    this.framesSinceChange++;
    let m = this.due;
    if (!m && this.needsSettle(now)) m = this.full;
    if (!m) return;
    this.due = null;
    this.bakes++;
    if (this.litDue && this.litMask && this.litTint) {
      // The lights' share alone, at the full mask's scale, into its textures.
      this.litDue = false;
      this.lit.mask.scale.set(this.litK);
      renderer.render({ container: this.lit.mask, target: this.litMask, clear: true, clearColor: [0, 0, 0, 0] });
      this.lit.tint.scale.set(this.litK);
      renderer.render({ container: this.lit.tint, target: this.litTint, clear: true, clearColor: [0, 0, 0, 0] });
      for (const s of [this.litSprites.mask, this.litSprites.tint]) {
        s.visible = true;
        s.scale.set(1 / this.litK);
      }
    }
    this.maskScene.scale.set(m.k);
    renderer.render({ container: this.maskScene, target: m.texture, clear: true, clearColor: [0, 0, 0, 0] });
    if (m.tints !== this.tintVersion) {
      m.tints = this.tintVersion;
      this.tintScene.scale.set(m.k);
      renderer.render({ container: this.tintScene, target: m.tint, clear: true, clearColor: [0, 0, 0, 0] });
    }
    if (m !== this.shown) this.show(m);
  }

  /** Draws the mask again from the same areas at another size (quality.ts changed maxSide). */
  redraw(map: MapData, blindAlpha: number): void {
    if (!this.areas) return;
    this.layersKey = "";
    this.draw(this.areas, map, blindAlpha);
  }
}

function quadGeometry(x0: number, y0: number, x1: number, y1: number): Geometry {
  return new Geometry({
    attributes: { aPosition: new Float32Array([x0, y0, x1, y0, x1, y1, x0, y1]) },
    indexBuffer: new Uint32Array([0, 1, 2, 0, 2, 3]),
  });
}

function sameTints(a: VisionAreas["tints"], b: VisionAreas["tints"]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].color !== b[i].color || a[i].alpha !== b[i].alpha || !samePolys([a[i].poly], [b[i].poly])) return false;
  }
  return true;
}
