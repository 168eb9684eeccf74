// MapRenderer draws one map from a Store into a container element, with
// PixiJS (WebGL) and pixi-viewport for pan, wheel and pinch. It knows
// nothing of the player page around it: what the user may do (drag which
// token, open doors) and what to send comes in through RendererOptions,
// so the host console's GM view can reuse it with other options.
//
// Rendering is on demand: a frame is drawn only when something changed
// (an event, a viewport move, an animation), which keeps phones cool and
// leaves the CPU to the rest of the page.
import { Application, Container, Graphics, Ticker, type Geometry, type Mesh, type Shader } from "pixi.js";
import { Viewport } from "pixi-viewport";
import type { Change, Store } from "../state/store";
import type { MapData, Movement, Token } from "../types";
import { drawAreaEffects, drawDrawings, drawMarkers, drawMeasurements, drawTiles, type TemplateCells } from "./objects";
import { tokensInside } from "./marks";
import { DoorLayer } from "./doors";
import { drawGrid, gridOf, pixelsPerUnit } from "./grid";
import { installLabelFont, TokenView } from "./tokens";
import { computeAreas, isPartyViewer, visibleIn, type VisionAreas } from "./vision";
import { streamMs, VisionLayer } from "./darkness";
import { FogLayer } from "./fog";
import { DragController } from "./drag";
import { TokenNames } from "./token-name";
import { fitView, freeArea, type Rect } from "./view-fit";
import { FrameLoop } from "./frameloop";
import { QualityGovernor, qualityKey, readStoredQuality } from "./quality";
import { setTextureLimit, textureLimit } from "./textures";
import { BackgroundLayer, nextTask } from "./background";
import { ScreenCache } from "./screencache";
import { precompileShaders, type Precompiled, warmUpLargeShapes, warmUpShaders } from "./warmup";

export { nextTask, preloadBackground } from "./background";

/** A pan has ended when the view has not moved for this long (ms). */
const panRestMs = 300;

/**
 * How long the page's first frame waits for the map's picture (ms): from
 * the renderer's start while the snapshot is on its way, then from when
 * the first map is known. On a CPU renderer each frame keeps the browser's
 * GPU process busy for a few hundred milliseconds, and the next frame
 * waits for it: a first frame drawn before the picture had come (the
 * tokens on the plain floor) put the frame with the picture that much
 * later. A picture slower than this is drawn when it comes, after a frame
 * without it.
 */
export const firstPictureWaitMs = 1000;

export interface RendererOptions {
  /**
   * "player" draws what players see; "gm" (the host console) draws everything:
   * hidden tokens translucent, every door, fog see-through, and the darkness of
   * vision only while previewVision() says so.
   */
  mode: "player" | "gm";
  /** GM mode: draw the players' darkness (a preview of what they see). */
  previewVision?(): boolean;
  /** A tap (press and release without a drag) on a token. */
  onTokenTap?(t: Token): void;
  /** GM mode: a tap on a door icon, instead of the open/close toggle (the GM also locks). */
  onDoorTap?(mapId: string, door: { id: string; state: string; x: number; y: number }, shiftKey: boolean): void;
  /** Whether the local user may drag this token now. */
  canDrag(t: Token): boolean;
  /** Whether the local user may open and close doors now. */
  canUseDoors(): boolean;
  /** Whose vision to draw; the whole party's when absent (a GM view would see all). */
  isViewer?(t: Token): boolean;
  /** Sends a drag step (tokenMoved). */
  sendMove(m: Movement): void;
  /** Sends a door change (updateDoor). */
  sendDoor(mapId: string, id: string, state: "open" | "closed" | "locked"): void;
  /** Reports where the user looks (mapViewportUpdated); the renderer throttles it. */
  sendViewport(frame: { id: string; x: number; y: number; zoom: number }): void;
  /** Whether animations should be cut short (prefers-reduced-motion). */
  reducedMotion(): boolean;
  /** Whether the user may pan and zoom (a display follows the host instead). */
  userViewport: boolean;
  /**
   * Lower the map's quality when frames run long (quality.ts), remembered
   * on this device; onQuality hears of each change. The GM's map keeps
   * full quality.
   */
  adaptQuality?: boolean;
  onQuality?(q: QualityGovernor): void;
}

/** localStorage, or null where the page may not use it. */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export class MapRenderer {
  app!: Application;
  viewport!: Viewport;
  frames = 0;
  /**
   * When the first frame that drew the map with its background ended
   * (performance.now()), how many tokens it drew, and how many frames
   * had shown the map without its background before it and since when
   * (the start of the first such frame): the floor benchmark's start-up
   * figure (the test hook reports it).
   */
  firstMapFrame: { at: number; tokens: number; bare: number; bareSince: number | null } | null = null;
  private bareFrames = 0; // frames that showed the map without its background, before the first with it
  private bareSince: number | null = null;
  private warmUpMesh: Mesh<Geometry, Shader> | null = null; // until warmUp() ran
  private precompiled: Precompiled | null = null;
  lastError: string | null = null;
  readonly views = new Map<string, TokenView>();
  private ticker = new Ticker();
  private loop!: FrameLoop;
  private screen!: ScreenCache;
  /** The map's quality on this device (quality.ts). */
  quality!: QualityGovernor;
  private dirty = true;
  private pictureDeadline = Infinity; // until when the first frame waits for the map's picture
  private lastPanFrame = -Infinity; // when the view last moved alone (performance.now() ms)
  private qualityDue = false; // a quality change waits for the view to rest
  private idlers: (() => void)[] = [];
  private background = new BackgroundLayer({
    requestRender: () => this.requestRender(),
    afterFrame: () => this.idle(),
    failed: (message) => (this.lastError = message),
  });
  private floorTiles = new Container();
  private grid = new Graphics();
  private gridMask = new Graphics(); // hexes stop at the map's edge
  private mapTiles = new Container();
  private drawings = new Graphics();
  private drawingTexts = new Container();
  /**
   * The squares each area effect covers, by id, as the server measured
   * them (marks.ts keeps it): the effects layer highlights them and rings
   * the tokens inside.
   */
  readonly templateSquares = new Map<string, number[]>();
  /** The page's own shared ruler (ruler.ts draws it): the measurements layer leaves it out. */
  localRuler: string | null = null;
  private effects = new Graphics();
  private measures = new Container();
  private objectTiles = new Container();
  private markers = new Container();
  private tokenLayer = new Container();
  readonly overlay = new Graphics(); // drag path and target cell
  /** The overlay's own render group: changed in the map's, it rebuilt every token's draw instructions each move. */
  private overlayGroup = new Container({ isRenderGroup: true });
  private vision = new VisionLayer();
  private fog = new FogLayer();
  private doors = new DoorLayer();
  private focus = new Graphics();
  /** Drawn above everything, never hit: the GM view's frames, walls and light radii. */
  readonly gmLayer = new Container();
  private shownMapId: string | null = null;
  private visionDue = false;
  private areas: VisionAreas | null = null;
  private lastViewportSent = 0;
  private viewportTimer: number | undefined;
  drag!: DragController;
  private names!: TokenNames;

  private constructor(private el: HTMLElement, readonly store: Store, readonly options: RendererOptions) {}

  static async create(el: HTMLElement, store: Store, options: RendererOptions): Promise<MapRenderer> {
    const r = new MapRenderer(el, store, options);
    await r.init();
    return r;
  }

  private async init(): Promise<void> {
    this.waitForPicture();
    this.quality = new QualityGovernor(window.devicePixelRatio || 1, readStoredQuality(storage()), this.options.adaptQuality === true);
    this.app = new Application();
    await this.app.init({
      resizeTo: this.el,
      autoStart: false,
      sharedTicker: false,
      // Multisampling costs a CPU renderer about 40% of a frame; it is
      // asked for only where frames were fast before (quality.ts). Token
      // discs, door icons and labels are textures with their own smooth edges.
      antialias: this.quality.antialias,
      backgroundColor: 0x111318,
      resolution: this.quality.resolution,
      autoDensity: true,
      preference: "webgl",
      // Not preserved: a preserved buffer is copied for the compositor every
      // frame, a full-screen pass on a CPU renderer; screenshots still work.
      preserveDrawingBuffer: false,
    });
    this.app.ticker.stop();
    const gl = (this.app.renderer as unknown as { gl?: WebGLRenderingContext }).gl;
    if (gl) setTextureLimit(Number(gl.getParameter(gl.MAX_TEXTURE_SIZE)) || 4096);
    this.vision.maxTextureSize = textureLimit();
    this.vision.webGLVersion = (this.app.renderer as unknown as { context?: { webGLVersion?: number } }).context?.webGLVersion ?? 1;
    this.vision.maxSide = this.quality.darknessSide;
    // The shaders start compiling in the GPU process now, while the page
    // reads the map's data and builds the scene; the warm-up links them
    // just before the first frame (warmUp).
    this.warmUpMesh = this.vision.warmUpMesh();
    this.precompiled = precompileShaders(this.app.renderer, this.warmUpMesh);
    this.el.appendChild(this.app.canvas);
    this.app.canvas.setAttribute("aria-label", "Battle map");
    this.app.canvas.tabIndex = 0;
    this.app.canvas.addEventListener("keydown", (e) => this.onKey(e));
    this.viewport = new Viewport({
      screenWidth: this.el.clientWidth,
      screenHeight: this.el.clientHeight,
      worldWidth: 1000,
      worldHeight: 1000,
      events: this.app.renderer.events,
      ticker: this.ticker,
      passiveWheel: false,
      disableOnContextMenu: true,
    });
    if (this.options.userViewport) {
      this.viewport.drag({ pressDrag: true }).pinch().wheel({ smooth: this.options.reducedMotion() ? undefined : 3 });
      // A flung map keeps gliding; not for people who asked for less motion.
      if (!this.options.reducedMotion()) this.viewport.decelerate({ friction: 0.92 });
    }
    this.viewport.clampZoom({ minScale: 0.05, maxScale: 6 });
    // The whole map is one render group: a pan or zoom changes the group's
    // transform (one uniform) and reuses the recorded draw instructions,
    // instead of recomputing every token's vertices and rebuilding the
    // batches each frame (the cost of a pan grew with the token count).
    this.viewport.enableRenderGroup();
    this.app.stage.addChild(this.viewport);
    this.screen = new ScreenCache(this.app.stage, this.viewport);
    this.viewport.addChild(this.background, this.floorTiles, this.grid, this.mapTiles, this.drawings, this.drawingTexts, this.effects, this.measures,
      this.objectTiles, this.markers, this.tokenLayer, this.overlayGroup, this.vision, this.fog, this.doors, this.focus, this.gmLayer);
    this.overlayGroup.addChild(this.overlay);
    this.tokenLayer.sortableChildren = true;
    this.viewport.addChild(this.gridMask);
    // Under the interactive viewport, any drawn shape would catch the
    // pointer (Pixi hit-tests geometry inside an interactive parent) and
    // hide the tokens and doors below it: only those two take events.
    for (const layer of [this.background, this.floorTiles, this.grid, this.mapTiles, this.drawings, this.drawingTexts, this.effects, this.measures,
      this.objectTiles, this.markers, this.overlayGroup, this.vision, this.fog, this.focus, this.gmLayer]) layer.eventMode = "none";
    this.viewport.on("moved", () => this.viewportMoved());
    this.viewport.on("zoomed", () => this.viewportMoved());
    this.drag = new DragController(this);
    this.names = new TokenNames(this.el, (x, y) => this.mapToScreen(x, y));
    // The fog image arrives later than the map: redraw (and re-judge doors) then.
    this.fog.onChange = () => {
      this.visionDue = true;
      this.requestRender();
    };
    this.app.renderer.on("resize", (w: number, h: number) => {
      this.viewport.resize(w, h);
      this.requestRender();
    });
    // Let what the network brought meanwhile (the map's data, starting its
    // image's download) run first.
    await nextTask();
    this.store.subscribe((c) => this.onChange(c));
    this.onChange({ kind: "map" });
    this.ticker.autoStart = false;
    // PixiJS's system ticker (its pointer-over checks) runs in this loop's
    // frames instead of asking for animation frames of its own forever.
    Ticker.system.autoStart = false;
    Ticker.system.stop();
    this.loop = new FrameLoop({
      frame: (now) => {
        if (this.app.renderer == null) return false;
        this.ticker.update(now);
        Ticker.system.update(now);
        return this.tick();
      },
      pending: () => !this.awaitingPicture(performance.now()) && (this.dirty || this.viewport.dirty || this.idlers.length > 0 || this.qualityDue || this.vision.settling || (!!this.background.video && !this.background.video.paused)),
      interval: (ms, now) => this.measured(ms, now),
    });
    // Input on the map may start a pan, a zoom or a drag: frames at once.
    for (const kind of ["pointerdown", "pointermove", "wheel", "keydown", "touchstart"]) {
      this.app.canvas.addEventListener(kind, () => this.loop.wake(), { passive: true });
    }
    this.loop.start();
  }

  /**
   * The first frame waits for the map's picture from now on, for
   * firstPictureWaitMs at most. The picture's load (or its failure) asks
   * for a frame; so does the end of the wait.
   */
  private waitForPicture(): void {
    this.pictureDeadline = performance.now() + firstPictureWaitMs;
    window.setTimeout(() => this.requestRender(), firstPictureWaitMs);
  }

  /** Whether a frame has shown a map (with its background or without). */
  private get drewMap(): boolean {
    return this.firstMapFrame !== null || this.bareFrames > 0;
  }

  /**
   * Whether the page's first frame with a map still waits for the map's
   * picture (firstPictureWaitMs): the snapshot is on its way, or it names
   * a picture that is neither shown nor failed yet.
   */
  private awaitingPicture(now: number): boolean {
    if (this.drewMap || now >= this.pictureDeadline) return false;
    if (!this.store.map) return this.store.loads === 0;
    return !this.background.loaded && !this.background.failed;
  }

  /**
   * The label glyph atlas and every shader (warmup.ts), once, at the start
   * of the first frame, before it queues any drawing. Here rather than
   * when WebGL starts, the GPU process has had the page's start-up to
   * compile them (precompileShaders): 30-40 ms sooner to the first map on
   * a CPU renderer. Inside the frame's drawing they cost it more (100-250
   * ms against 130): each compile's answer waits for the queued drawing.
   */
  private warmUp(): void {
    if (!this.warmUpMesh) return;
    installLabelFont();
    this.precompiled?.adopt(false);
    warmUpShaders(this.app.renderer, this.warmUpMesh);
    this.warmUpMesh = null;
    // The program for large shapes (a drag's path, a big grid) once this
    // frame is drawn, in a task of its own: needed by the first drag, not
    // by the first map (a first drag that compiled it took 3 times the
    // bare page's time).
    this.idle()
      .then(nextTask)
      .then(() => {
        this.precompiled?.adopt(true);
        if (this.app.renderer) warmUpLargeShapes(this.app.renderer);
        this.precompiled?.release();
      });
  }

  /** Sizes the canvas to its element now (the page around it changed). */
  fitToElement(): void {
    // Not app.resize(): it draws a frame of its own, outside this loop,
    // and resizes the canvas (its drawing buffer made anew) even when the
    // size is the same; at start-up both came before the first map frame.
    const w = this.el.clientWidth, h = this.el.clientHeight;
    const screen = this.app.renderer.screen;
    if (w !== screen.width || h !== screen.height) this.app.renderer.resize(w, h);
    this.requestRender();
  }

  /** Whether the map's background shows (or the map has none). */
  get backgroundLoaded(): boolean {
    return this.background.loaded;
  }

  /** The tiles drawn of a picture too big for one texture; null when it is drawn whole. */
  get backgroundTiles(): { tiles: number; levels: number[]; loading: number; bytes: number } | null {
    return this.background.tiled?.stats() ?? null;
  }

  /** Asks for a frame; callers never render themselves. */
  requestRender(): void {
    this.dirty = true;
    this.loop?.wake();
  }

  /** Resolves after the next rendered frame (test hook: events applied and drawn). */
  idle(): Promise<void> {
    const done = new Promise<void>((resolve) => this.idlers.push(resolve));
    this.requestRender();
    return done;
  }

  /** The darkness mask's longest side now, in texels (0 before line of sight drew one). */
  get darknessMaskSide(): number {
    const m = this.vision.maskSize;
    return Math.max(m.width, m.height);
  }

  /** The longest side of the darkness mask shown now (half the full side while polygons stream). */
  get darknessShownSide(): number {
    return this.vision.shownSide;
  }

  /** Whether the map's lights are baked apart from the tokens' sight (darkness.ts; the test hook reports it). */
  get darknessLightsApart(): boolean {
    return this.vision.lightsApart;
  }

  /** Darkness masks baked so far (the test hook reports it). */
  get darknessBakes(): number {
    return this.vision.bakes;
  }

  /** The largest texture side the map uses (the device's WebGL limit). */
  get textureLimit(): number {
    return textureLimit();
  }

  /** Whether the frame loop runs every animation frame (false: the map is idle). */
  get animating(): boolean {
    return this.loop.running;
  }

  // ---- quality ---------------------------------------------------------------

  private measured(ms: number, now: number): void {
    const before = JSON.stringify(this.quality.stored());
    if (this.quality.recordFrame(ms, now)) {
      // Not mid-pan: a new darkness size redraws the map and the pan's saved frame (its longest frames).
      if (now - this.lastPanFrame < panRestMs) this.qualityDue = true;
      else this.applyQuality();
    }
    const after = JSON.stringify(this.quality.stored());
    if (after !== before && this.options.adaptQuality) storage()?.setItem(qualityKey, after);
  }

  /** The player's way back: full quality, no more lowering on this device. */
  restoreQuality(): void {
    this.quality.restore();
    storage()?.setItem(qualityKey, JSON.stringify(this.quality.stored()));
    this.applyQuality();
  }

  private applyQuality(): void {
    this.qualityDue = false;
    const q = this.quality;
    if (this.vision.maxSide !== q.darknessSide) {
      this.vision.maxSide = q.darknessSide;
      const map = this.store.map;
      if (map) this.vision.redraw(map, map.fogOfWar ? 0.7 : 1);
    }
    if (this.app.renderer.resolution !== q.resolution) this.app.renderer.resolution = q.resolution;
    this.options.onQuality?.(q);
    this.requestRender();
  }

  /** Draws a frame when one is due; true when it drew. */
  private tick(): boolean {
    const now = performance.now();
    if (this.awaitingPicture(now)) return false;
    let moving = false;
    const moved: TokenView[] = [];
    for (const v of this.views.values()) if (v.step(now)) moved.push(v);
    if (moved.length > 0) {
      moving = true;
      // Areas built from the server's polygons do not follow a glide or a
      // drag frame by frame (vision.ts): only who is seen may change.
      if (!this.areas || this.areas.followsDrawn) this.visionDue = true;
    }
    if (this.visionDue) this.redrawVision();
    else for (const v of moved) this.judgeVisible(v);
    const viewMoved = this.viewport.dirty;
    this.viewport.dirty = false;
    if (this.qualityDue && !viewMoved && now - this.lastPanFrame >= panRestMs) this.applyQuality();
    if (this.background.video && !this.background.video.paused) this.dirty = true;
    if (this.vision.needsSettle(now)) this.dirty = true; // the darkness at full size again
    const changed = this.dirty || moving;
    if (!changed && !viewMoved) return false;
    this.dirty = false;
    try {
      if (changed) {
        this.warmUp();
        this.screen.invalidate();
        this.vision.bake(this.app.renderer, now);
        this.app.render();
      } else this.panFrame();
      this.frames++;
      if (!this.firstMapFrame && this.store.map) {
        if (this.background.loaded) this.firstMapFrame = { at: performance.now(), tokens: this.views.size, bare: this.bareFrames, bareSince: this.bareSince };
        else if (this.bareFrames++ === 0) this.bareSince = now;
      }
      this.names.place();
    } catch (err) {
      this.lastError = `render: ${(err as Error).message}`;
    }
    const idlers = this.idlers;
    this.idlers = [];
    for (const f of idlers) f();
    return true;
  }

  /** A frame in which only the view moved: replayed from the last one when it can be (screencache.ts). */
  private panFrame(): void {
    this.lastPanFrame = performance.now();
    const r = this.app.renderer;
    const view = { x: this.viewport.x, y: this.viewport.y, scale: this.viewport.scale.x };
    if (this.screen.replay(r, view)) return;
    if (this.screen.capture(r, view, r.screen.width, r.screen.height, r.background.color, textureLimit())) return;
    this.app.render();
  }

  /** Frames drawn from the saved frame while panning (the test hook reports them). */
  get replayedFrames(): number {
    return this.screen.replays;
  }

  // ---- store changes -------------------------------------------------------

  private onChange(c: Change): void {
    try {
      this.apply(c);
    } catch (err) {
      this.lastError = `${c.kind}: ${(err as Error).message}`;
      console.error(err);
    }
    this.requestRender();
  }

  private apply(c: Change): void {
    const map = this.store.map;
    switch (c.kind) {
      case "map":
        this.drawMap(map);
        return;
      case "token":
        this.syncToken(c.id, true);
        this.visionDue = true;
        this.ringTokensInside(map);
        return;
      case "tokenRemoved":
        this.removeToken(c.id);
        this.visionDue = true;
        this.ringTokensInside(map);
        return;
      case "tokens":
        this.syncTokens();
        this.visionDue = true;
        this.ringTokensInside(map);
        return;
      case "objects":
        if (map) this.drawObjects(map, c.layer);
        if (c.layer === "lights") this.visionDue = true;
        return;
      case "walls":
      case "vision":
        this.visionDue = true;
        return;
      case "fog":
        if (map) this.fog.load(map, this.store.fogImage);
        return;
      case "screen":
        this.drawDoors(map);
        this.visionDue = true; // whose sight players see (sharedVision) is the screen's
        this.requestRender();
        return;
      case "moved":
        this.drag.remoteMove(c.movement);
        return;
      case "command":
        this.command(c.name, c.data);
        return;
    }
  }

  private drawMap(map: MapData | null): void {
    // A new map starts over; the same map updated (a door, a setting)
    // keeps its token views, their animations and a drag in progress.
    if (!map || map.id !== this.shownMapId) {
      for (const v of this.views.values()) v.destroy({ children: true });
      this.views.clear();
      this.drag.reset();
    }
    this.shownMapId = map?.id ?? null;
    if (!map) {
      this.background.clear();
      this.grid.clear();
      this.vision.visible = false;
      this.fog.visible = false;
      this.doors.clear();
      return;
    }
    const w = map.width || 1000, h = map.height || 1000;
    const first = this.viewport.worldWidth !== w || this.viewport.worldHeight !== h || this.background.mapId !== map.id;
    this.viewport.resize(this.el.clientWidth, this.el.clientHeight, w, h);
    if (first && !this.drewMap) {
      performance.mark("companion:map-known"); // the first frame's wait for the picture counts from here
      this.waitForPicture();
    }
    this.background.show(map);
    drawGrid(this.grid, map);
    // Hexes and corner marks overrun the map's edge and need the mask; square
    // lines stop at it by themselves, and a stencil mask costs a frame
    // several full-screen passes on a CPU renderer.
    this.gridMask.clear();
    if (gridOf(map).type !== "square" || map.gridStyle === "corners") {
      this.gridMask.rect(0, 0, w, h).fill(0xffffff);
      this.grid.mask = this.gridMask;
    } else this.grid.mask = null;
    for (const layer of ["tiles", "drawings", "areaEffects", "measurements", "markers"] as const) this.drawObjects(map, layer);
    this.syncTokens();
    this.fog.load(map, this.store.fogImage);
    this.visionDue = true;
    this.drawDoors(map);
    if (first) this.fit();
  }

  private drawObjects(map: MapData, layer: string): void {
    // The GM map draws the game master's layer too (faded): hidden
    // objects and those on the dm layer (objects.ts).
    const gm = this.options.mode === "gm";
    switch (layer) {
      case "tiles":
        drawTiles(this.floorTiles, map.tiles ?? [], ["floor"], gm);
        drawTiles(this.mapTiles, map.tiles ?? [], ["map"], gm);
        drawTiles(this.objectTiles, map.tiles ?? [], ["object", "token"], gm);
        return;
      case "drawings":
        drawDrawings(this.drawings, map.drawings ?? [], gm, this.drawingTexts);
        return;
      case "areaEffects": {
        const g = gridOf(map);
        const cells: TemplateCells = { squares: this.templateSquares, grid: g };
        const shown = [...this.store.tokens.values()].filter((t) => this.views.get(t.id)?.visible);
        const inside = tokensInside(shown, map.areaEffects ?? [], this.templateSquares, g).map((t) => ({ x: t.x, y: t.y, r: (Math.max(t.width ?? 1, t.height ?? 1) * g.size) / 2 + 4 }));
        drawAreaEffects(this.effects, map.areaEffects ?? [], gm, cells, inside);
        return;
      }
      case "measurements": {
        const ppu = pixelsPerUnit(map);
        const list = (map.measurements ?? []).filter((m) => m.id !== this.localRuler);
        drawMeasurements(this.measures, list, (px) => `${Math.round(px / ppu)} ${map.gridUnits ?? "ft"}`, gm);
        return;
      }
      case "markers":
        drawMarkers(this.markers, map.markers ?? [], gm);
        return;
    }
  }

  /** A token came, went or moved: the templates ring the tokens inside them again. */
  private ringTokensInside(map: MapData | null): void {
    if (map && this.templateSquares.size > 0) this.drawObjects(map, "areaEffects");
  }

  /** Redraws one kind's layer (marks.ts, once a template's squares are measured). */
  redrawObjects(layer: "areaEffects" | "drawings" | "measurements" | "markers"): void {
    if (this.store.map) this.drawObjects(this.store.map, layer);
  }

  // ---- tokens ----------------------------------------------------------------

  private lookOf(t: Token) {
    const c = this.store.combatantsByToken.get(t.id) ?? t.combatant ?? null;
    const defeated = Boolean(t.dead || c?.defeated || c?.dead);
    return { bloodied: Boolean(t.bloodied || c?.bloodied), defeated };
  }

  private syncTokens(): void {
    for (const id of [...this.views.keys()]) if (!this.store.tokens.has(id)) this.removeToken(id);
    for (const id of this.store.tokens.keys()) this.syncToken(id, true);
  }

  private syncToken(id: string, jump: boolean): void {
    const t = this.store.tokens.get(id);
    const map = this.store.map;
    if (!t || !map) return;
    const cell = gridOf(map).size;
    let v = this.views.get(id);
    if (!v) {
      v = new TokenView(t, cell);
      this.views.set(id, v);
      this.tokenLayer.addChild(v);
      this.drag.attach(v);
      this.names.attach(v);
      const tap = this.options.onTokenTap;
      if (tap) v.on("pointertap", () => tap(this.store.tokens.get(id) ?? t));
    }
    // The GM sees a hidden token, translucent: players do not.
    v.alpha = this.options.mode === "gm" && t.hidden ? 0.45 : 1;
    v.update(t, this.lookOf(t), cell, pixelsPerUnit(map));
    v.zIndex = (t.elevation ?? 0) * 10 + Math.max(t.width ?? 1, t.height ?? 1);
    if (jump && !this.drag.isDragging(id)) v.jumpTo(t.x, t.y);
  }

  private removeToken(id: string): void {
    const v = this.views.get(id);
    if (!v) return;
    this.drag.forget(id);
    v.destroy({ children: true });
    this.views.delete(id);
  }

  /** Where a token is drawn now (its view), else its committed place. */
  drawnPosition(t: Token): { x: number; y: number } {
    const v = this.views.get(t.id);
    return v ? { x: v.drawnX, y: v.drawnY } : { x: t.x, y: t.y };
  }

  // ---- vision, fog and doors -----------------------------------------------

  private redrawVision(): void {
    this.visionDue = false;
    const map = this.store.map;
    if (!map) return;
    this.areas = computeAreas({
      map,
      tokens: this.store.tokens.values(),
      position: (t) => this.drawnPosition(t),
      target: (t) => this.views.get(t.id)?.target ?? t,
      sight: (k) => this.store.sights.get(k),
      visionKey: (t) => this.store.visionKey(t),
      isViewer: this.options.isViewer,
      dragging: (t) => this.drag.isDragging(t.id),
    });
    const now = performance.now();
    this.vision.draw(this.areas, map, map.fogOfWar ? 0.7 : 1, now, now - this.drag.lastMoveAt < streamMs);
    this.fog.reveal(this.areas);
    if (this.options.mode === "gm") {
      // The GM sees the whole map; fog is a see-through veil showing what players miss.
      if (!this.options.previewVision?.()) this.vision.visible = false;
      this.fog.alpha = this.options.previewVision?.() ? 1 : 0.45;
    }
    this.drawDoors(map);
    for (const v of this.views.values()) this.judgeVisible(v);
    this.dirty = true;
  }

  /**
   * Other creatures show only where the party sees now: an explored but
   * unwatched area shows the map, not who stands in it. The party's own
   * tokens always show; the GM sees every creature unless previewing the
   * players' view.
   */
  private judgeVisible(v: TokenView): void {
    const map = this.store.map;
    if (!map) return;
    const seesAll = this.options.mode === "gm" && !this.options.previewVision?.();
    const own = seesAll || (this.options.isViewer ? this.options.isViewer(v.token) : isPartyViewer(v.token));
    const shown = own || ((!map.lineOfSight || !this.areas || visibleIn(this.areas, v.drawnX, v.drawnY)) && (!map.fogOfWar || !this.fog.hides(v.drawnX, v.drawnY)));
    if (v.visible !== shown) v.visible = shown;
  }

  /** Whether the party sees (x, y) now, from the data the masks are drawn from. */
  isVisibleAt(x: number, y: number): boolean {
    const map = this.store.map;
    if (!map) return false;
    if (this.visionDue) this.redrawVision();
    if (this.areas && !visibleIn(this.areas, x, y)) return false;
    return !this.fog.hides(x, y);
  }

  private drawDoors(map: MapData | null): void {
    if (!map) {
      this.doors.clear();
      return;
    }
    const gm = this.options.mode === "gm";
    const doorTap = this.options.onDoorTap;
    const judged = !gm && ((map.lineOfSight && this.areas) || map.fogOfWar);
    this.doors.update(map.walls, Math.max(18, gridOf(map).size * 0.4), {
      // A door is shown where the party can see it (either side of it).
      shown: (d) => !judged || this.doorSeen(d.x, d.y, map),
      usable: this.options.canUseDoors(),
      gm: gm && !!doorTap,
      onTap: (d, shift) => {
        if (gm && doorTap) doorTap(map.id, d, shift);
        else if (d.state !== "locked") this.options.sendDoor(map.id, d.id, d.state === "open" ? "closed" : "open");
      },
    });
  }

  /** Redraws vision and doors after an option changed (the GM's preview toggle). */
  refreshVision(): void {
    this.visionDue = true;
    this.requestRender();
  }

  private doorSeen(x: number, y: number, map: MapData): boolean {
    const k = gridOf(map).size * 0.25;
    return [[k, 0], [-k, 0], [0, k], [0, -k]].some(([dx, dy]) => (!this.areas || visibleIn(this.areas, x + dx, y + dy)) && !this.fog.hides(x + dx, y + dy));
  }

  // ---- viewport ----------------------------------------------------------------

  /**
   * Fits the map into the part of the screen no panel covers (elements
   * marked data-covers-map), the party in view (view-fit.ts), and reports
   * the view, so the host sees where a page looks before anyone pans.
   */
  fit(): void {
    const map = this.store.map;
    if (!map) return;
    const w = map.width || 1000, h = map.height || 1000;
    const box = this.el.getBoundingClientRect();
    const covers: Rect[] = [];
    for (const e of document.querySelectorAll<HTMLElement>("[data-covers-map]")) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) covers.push({ left: r.left - box.left, top: r.top - box.top, right: r.right - box.left, bottom: r.bottom - box.top });
    }
    const sw = this.viewport.screenWidth, sh = this.viewport.screenHeight;
    // The game master's map shows the whole map: only players zoom to the party.
    const v = fitView(w, h, sw, sh, freeArea(sw, sh, covers), this.options.mode === "player" ? this.partyBox() : null, gridOf(map).size);
    this.viewport.setZoom(v.zoom, true);
    this.viewport.moveCenter(v.centerX, v.centerY);
    this.viewportMoved();
    this.requestRender();
  }

  /** The bounding box of the party's tokens (player tokens), null when there is none. */
  private partyBox(): Rect | null {
    let box: Rect | null = null;
    for (const t of this.store.tokens.values()) {
      if (t.player !== true) continue;
      box = box
        ? { left: Math.min(box.left, t.x), top: Math.min(box.top, t.y), right: Math.max(box.right, t.x), bottom: Math.max(box.bottom, t.y) }
        : { left: t.x, top: t.y, right: t.x, bottom: t.y };
    }
    return box;
  }

  /** Arrow keys pan by a fifth of the screen when the map has focus. */
  private onKey(e: KeyboardEvent): void {
    if (!this.options.userViewport) return;
    const step = 0.2 / this.viewport.scaled;
    const d: Record<string, [number, number]> = {
      ArrowLeft: [-this.viewport.screenWidth * step, 0], ArrowRight: [this.viewport.screenWidth * step, 0],
      ArrowUp: [0, -this.viewport.screenHeight * step], ArrowDown: [0, this.viewport.screenHeight * step],
    };
    const move = d[e.key];
    if (!move) return;
    e.preventDefault();
    const c = this.viewport.center;
    this.viewport.moveCenter(c.x + move[0], c.y + move[1]);
    this.viewportMoved();
    this.requestRender();
  }

  /**
   * Zooms by factor about a map point that stays where it is on screen:
   * the given one (the pointer), else the party's centre when it is in
   * view, else the screen's centre. Zooming about the map's centre pushed
   * the party off screen.
   */
  zoomBy(factor: number, about?: { x: number; y: number }): void {
    const c = this.viewport.center;
    let a = about ?? null;
    const party = this.partyBox();
    if (!a && party) {
      const px = (party.left + party.right) / 2, py = (party.top + party.bottom) / 2;
      const s = this.viewport.toScreen(px, py);
      if (s.x >= 0 && s.y >= 0 && s.x <= this.viewport.screenWidth && s.y <= this.viewport.screenHeight) a = { x: px, y: py };
    }
    const before = a ? this.viewport.toScreen(a.x, a.y) : null;
    this.viewport.setZoom(this.viewport.scaled * factor, true);
    this.viewport.moveCenter(c);
    if (a && before) {
      // Move the view so that the anchor is back under the same screen point.
      const now = this.viewport.toWorld(before.x, before.y);
      this.viewport.moveCenter(c.x + a.x - now.x, c.y + a.y - now.y);
    }
    this.viewportMoved();
    this.requestRender();
  }

  /** Tells the host where this page looks now (the socket opened after the first fit). */
  reportViewport(): void {
    this.lastViewportSent = 0;
    this.viewportMoved();
  }

  private viewportMoved(): void {
    this.loop?.wake();
    const vp = this.viewport;
    this.background.view({ left: vp.left, top: vp.top, right: vp.right, bottom: vp.bottom, pixelsPerUnit: vp.scale.x * this.app.renderer.resolution });
    const map = this.store.map;
    if (!map || !this.options.userViewport) return;
    // At most 5 reports a second; the last position is always sent.
    const send = () => {
      this.lastViewportSent = performance.now();
      const c = this.viewport.center;
      this.options.sendViewport({ id: map.id, x: Math.round(c.x), y: Math.round(c.y), zoom: Math.round(this.viewport.scaled * 1000) / 1000 });
    };
    clearTimeout(this.viewportTimer);
    const wait = 200 - (performance.now() - this.lastViewportSent);
    if (wait <= 0) send();
    else this.viewportTimer = window.setTimeout(send, wait);
  }

  private command(name: Extract<Change, { kind: "command" }>["name"], data: unknown): void {
    const d = (data && typeof data === "object" ? data : {}) as Record<string, unknown>;
    this.commands[name](d);
  }

  /** What the view does for each command the store passes on (Change "command"). */
  private readonly commands = {
    mapFitScreen: () => this.fit(),
    mapVideoControlUpdated: (d: Record<string, unknown>) => {
      // The host plays, pauses and seeks a video background for everyone.
      const v = this.background.video;
      if (!v) return;
      const time = Number(d.time);
      if (Number.isFinite(time) && Math.abs(v.currentTime - time) > 0.5) v.currentTime = time;
      if (d.state === "pause") v.pause();
      else if (d.state === "play") v.play().catch(() => {});
      this.requestRender();
    },
    mapFrameUpdated: (d: Record<string, unknown>) => {
      if (this.options.userViewport) return; // only displays follow the host's frame
      if (typeof d.id === "string" && this.store.map && d.id !== this.store.map.id) return; // another map's frame
      const x = Number(d.x), y = Number(d.y), zoom = Number(d.zoom);
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      if (this.options.reducedMotion()) {
        if (zoom > 0) this.viewport.setZoom(zoom, true);
        this.viewport.moveCenter(x, y);
      } else {
        this.viewport.animate({ position: { x, y }, scale: zoom > 0 ? zoom : undefined, time: 400, ease: "easeInOutSine" });
      }
      this.requestRender();
    },
    mapFocus: (d: Record<string, unknown>) => {
      const x = Number(d.x), y = Number(d.y);
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      if (d.reset) {
        this.fit();
        return;
      }
      if (d.pan || d.zoom) {
        const scale = d.zoom ? Math.max(this.viewport.scaled, 1.5) : undefined;
        if (this.options.reducedMotion()) {
          if (scale) this.viewport.setZoom(scale, true);
          this.viewport.moveCenter(x, y);
        } else this.viewport.animate({ position: { x, y }, scale, time: 500, ease: "easeInOutSine" });
      }
      if (d.effect !== false) this.pulse(x, y, typeof d.color === "string" ? d.color : "#ffcc00");
    },
  } satisfies Record<Extract<Change, { kind: "command" }>["name"], (d: Record<string, unknown>) => void>;

  /** The attention ring of mapFocus: expanding circles for 1.2 s (one still ring with reduced motion). */
  private pulse(x: number, y: number, color: string): void {
    const c = parseInt(color.replace("#", "").slice(0, 6), 16) || 0xffcc00;
    const start = performance.now();
    const quick = this.options.reducedMotion();
    const step = () => {
      const t = (performance.now() - start) / 1200;
      this.focus.clear();
      if (t < 1) {
        const r = quick ? 60 : 20 + 80 * t;
        this.focus.circle(x, y, r).stroke({ width: 6, color: c, alpha: quick ? 1 : 1 - t });
        this.ticker.addOnce(step);
      }
      this.requestRender();
    };
    step();
  }

  /** Page CSS pixels of a map point, and back. */
  mapToScreen(x: number, y: number): { x: number; y: number } {
    const p = this.viewport.toScreen(x, y);
    const r = this.app.canvas.getBoundingClientRect();
    return { x: p.x + r.left, y: p.y + r.top };
  }
  screenToMap(x: number, y: number): { x: number; y: number } {
    const r = this.app.canvas.getBoundingClientRect();
    const p = this.viewport.toWorld(x - r.left, y - r.top);
    return { x: p.x, y: p.y };
  }
}
