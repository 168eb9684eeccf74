// Token drags, both ways.
// Local: press a token the user may move, drag, release. The server gets
// tokenMoved `start`, `control` at most 30 a second (the newest position
// always goes out), then `end` at the grid cell the token snaps to (hex
// too), with the path. Escape, a lost pointer, window blur or a second
// finger (which then pans and zooms instead) send `cancel` and put the
// token back. A `block` from the server sends it back with a short glide.
// Remote: other clients' drags are drawn at each position sent; `end` glides
// to the committed cell.
import { Container, Point, Text, type FederatedPointerEvent } from "pixi.js";
import type { Movement, Token } from "../types";
import { gridOf, hexCorners, pixelsPerUnit, snap } from "./grid";
import type { MapRenderer } from "./renderer";
import type { TokenView } from "./tokens";

const controlInterval = 1000 / 30;
const startThreshold = 4; // screen pixels before a press becomes a drag

interface LocalDrag {
  view: TokenView;
  pointerId: number;
  pointerType: string;
  screenX: number; // where the pointer is now, canvas pixels
  screenY: number;
  originX: number;
  originY: number;
  grabDX: number; // pointer to token centre, map units
  grabDY: number;
  startScreenX: number;
  startScreenY: number;
  started: boolean;
  latestX: number; // the newest token position, map units: what the next control sends
  latestY: number;
  path: number[];
  lastSent: number;
  timer: number | undefined;
}

export class DragController {
  private local: LocalDrag | null = null;
  /** Tokens whose drag ended here and whose commit the server may still refuse. */
  private pendingOrigin = new Map<string, { x: number; y: number }>();
  private pointers = new Set<number>();
  /** How far the drag goes, shown beside the target cell. */
  private distance = new Text({ text: "", style: { fontFamily: "system-ui, sans-serif", fontWeight: "700", fontSize: 20, fill: 0xffffff, stroke: { color: 0x000000, width: 5 } }, resolution: 2 });

  constructor(private r: MapRenderer) {
    this.distance.anchor.set(0.5, 1.3);
    this.distance.visible = false;
    this.distance.eventMode = "none";
    // Above the whole map, in a render group of its own: a text changed on
    // every move in the map's group rebuilt the map's draw instructions.
    const above = new Container({ isRenderGroup: true });
    above.eventMode = "none";
    above.addChild(this.distance);
    r.viewport.addChild(above);
    const stage = r.app.stage;
    stage.eventMode = "static";
    stage.on("globalpointermove", (e) => this.onMove(e));
    stage.on("pointerup", (e) => this.onUp(e));
    // Let go outside the map (over the page's controls, or off the window): the pointer is lost, the move is not meant.
    stage.on("pointerupoutside", (e) => this.cancelFor(e.pointerId));
    stage.on("pointercancel", (e) => this.cancelFor(e.pointerId));
    // Track every finger on the canvas: a second one turns a drag into a pinch.
    const canvas = r.app.canvas;
    // Browsers send pointerdown before touchstart (which Pixi listens to
    // on touch screens), so the drag is handed over before the second
    // finger reaches the viewport, and the viewport sees two fingers.
    canvas.addEventListener("pointerdown", (e) => {
      this.pointers.add(e.pointerId);
      const d = this.local;
      if (d && this.pointers.size > 1) {
        this.cancel();
        if (d.pointerType === "touch") this.handToViewport(d);
      }
    });
    // Browsers deliver pointermove once per frame, just before drawing it;
    // on a slow page (a CPU renderer, a busy phone) that held each control
    // back by up to a frame. pointerrawupdate (Chromium, secure pages)
    // comes as soon as the pointer moves: the control goes out from it,
    // and pointermove still moves and draws the token here.
    window.addEventListener("pointerrawupdate", (e) => this.onRawMove(e as PointerEvent));
    const lift = (e: PointerEvent) => this.pointers.delete(e.pointerId);
    canvas.addEventListener("pointerup", lift);
    canvas.addEventListener("pointercancel", (e) => {
      lift(e);
      this.cancelFor(e.pointerId);
    });
    canvas.addEventListener("lostpointercapture", (e) => this.cancelFor(e.pointerId));
    window.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.local) this.cancel();
    });
    window.addEventListener("blur", () => this.local && this.cancel());
    document.addEventListener("visibilitychange", () => document.hidden && this.local && this.cancel());
  }

  attach(view: TokenView): void {
    view.on("pointerdown", (e: FederatedPointerEvent) => this.onDown(view, e));
  }

  /**
   * When a drag, ours or someone's, last moved a token (performance.now()):
   * the darkness treats the first change of a drag as part of a stream
   * (darkness.ts), so a drag's first move is not baked at full size.
   */
  lastMoveAt = -Infinity;

  isDragging(id: string): boolean {
    return this.local?.view.token.id === id;
  }

  forget(id: string): void {
    if (this.isDragging(id)) this.finish();
    this.pendingOrigin.delete(id);
  }

  reset(): void {
    this.finish();
    this.pendingOrigin.clear();
  }

  private onDown(view: TokenView, e: FederatedPointerEvent): void {
    if (this.local || !this.r.options.canDrag(view.token)) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (this.pointers.size > 1) return; // a second finger: that is a pinch
    // The viewport never learns of this pointer: it would pan (or fling,
    // once released) along with the token.
    e.stopPropagation();
    const p = this.r.viewport.toWorld(e.global.x, e.global.y);
    this.local = {
      view,
      pointerId: e.pointerId,
      pointerType: e.pointerType,
      screenX: e.global.x,
      screenY: e.global.y,
      originX: view.token.x,
      originY: view.token.y,
      grabDX: view.drawnX - p.x,
      grabDY: view.drawnY - p.y,
      startScreenX: e.global.x,
      startScreenY: e.global.y,
      started: false,
      latestX: view.token.x,
      latestY: view.token.y,
      path: [view.token.x, view.token.y],
      lastSent: 0,
      timer: undefined,
    };
    this.r.viewport.plugins.pause("drag");
    this.r.viewport.plugins.pause("decelerate");
    view.cursor = "grabbing";
  }

  private onMove(e: FederatedPointerEvent): void {
    const d = this.local;
    if (!d || e.pointerId !== d.pointerId) return;
    d.screenX = e.global.x;
    d.screenY = e.global.y;
    if (!this.begin(d, e.global.x, e.global.y)) return;
    const p = this.r.viewport.toWorld(e.global.x, e.global.y);
    const x = p.x + d.grabDX, y = p.y + d.grabDY;
    d.latestX = x;
    d.latestY = y;
    this.lastMoveAt = performance.now();
    d.view.jumpTo(x, y);
    d.view.zIndex = 10_000;
    const n = d.path.length;
    if (Math.hypot(x - d.path[n - 2], y - d.path[n - 1]) > 12) d.path.push(Math.round(x), Math.round(y));
    this.drawPath();
    this.r.requestRender();
    this.scheduleControl(d);
  }

  /**
   * Whether the press is a drag once the pointer is at screen point (x, y):
   * the first time it is past startThreshold from the press, the drag
   * starts (and `start` goes out).
   */
  private begin(d: LocalDrag, x: number, y: number): boolean {
    if (d.started) return true;
    if (Math.hypot(x - d.startScreenX, y - d.startScreenY) < startThreshold) return false;
    d.started = true;
    this.send("start", d.originX, d.originY);
    return true;
  }

  /**
   * A pointer move as soon as it happens (before the frame that draws it):
   * the position goes out now, and a press becomes a drag now. Started
   * only by the frame's pointermove, a drag whose first move stayed under
   * the threshold waited a whole frame for its start: on a page drawing
   * 3-5 frames a second (a CPU renderer, a busy phone), a third of a
   * second before anyone else saw the token move (the floor benchmark,
   * tests/perf/browser_perf_floor_test.go).
   */
  private onRawMove(e: PointerEvent): void {
    const d = this.local;
    if (!d || e.pointerId !== d.pointerId) return;
    const r = this.r.app.canvas.getBoundingClientRect();
    if (!this.begin(d, e.clientX - r.left, e.clientY - r.top)) return;
    const p = this.r.viewport.toWorld(e.clientX - r.left, e.clientY - r.top);
    d.latestX = p.x + d.grabDX;
    d.latestY = p.y + d.grabDY;
    this.scheduleControl(d);
  }

  /** At most 30 controls a second; the newest position always goes out. */
  private scheduleControl(d: LocalDrag): void {
    const wait = controlInterval - (performance.now() - d.lastSent);
    if (wait <= 0) this.sendControl();
    else if (d.timer === undefined) d.timer = window.setTimeout(() => this.sendControl(), wait);
  }

  private sendControl(): void {
    const d = this.local;
    if (!d) return;
    clearTimeout(d.timer);
    d.timer = undefined;
    d.lastSent = performance.now();
    this.send("control", Math.round(d.latestX), Math.round(d.latestY));
  }

  private onUp(e: FederatedPointerEvent): void {
    const d = this.local;
    if (!d || e.pointerId !== d.pointerId) return;
    if (!d.started) {
      this.finish();
      return;
    }
    const map = this.r.store.map;
    const t = d.view.token;
    const at = map ? snap(gridOf(map), d.view.drawnX, d.view.drawnY, t.width, t.height) : { x: d.view.drawnX, y: d.view.drawnY };
    const x = Math.round(at.x), y = Math.round(at.y);
    d.path.push(x, y);
    this.send("end", x, y, d.path);
    this.pendingOrigin.set(t.id, { x: d.originX, y: d.originY });
    // The server answers with our own moves, then end (or block). Until
    // then, late echoes of our control steps are not someone else's drag;
    // if no answer comes, the token is free again after a while.
    const id = t.id;
    window.setTimeout(() => this.pendingOrigin.delete(id), 3000);
    t.x = x; // optimistic: the server's end or block settles it
    t.y = y;
    d.view.moveTo(x, y, this.r.options.reducedMotion() ? 0 : 80);
    this.finish();
  }

  private cancelFor(pointerId: number): void {
    if (this.local && this.local.pointerId === pointerId) this.cancel();
  }

  /**
   * The finger that was dragging a token becomes one of the viewport's, so
   * that with the second finger it pinches and pans. The viewport never
   * saw its press (the token kept it), so it is told now.
   */
  private handToViewport(d: LocalDrag): void {
    const input = (this.r.viewport as unknown as { input?: { down(e: unknown): void } }).input;
    if (!input) return;
    try {
      input.down({
        pointerId: d.pointerId, pointerType: d.pointerType, button: 0, global: new Point(d.screenX, d.screenY),
        data: { pointerId: d.pointerId, pointerType: d.pointerType }, stopPropagation() {},
      });
    } catch {
      /* the viewport's internals changed: the second finger alone pans */
    }
  }

  /** Abandons the drag in progress: `cancel`, and the token goes back. */
  cancel(): void {
    const d = this.local;
    if (!d) return;
    if (d.started) this.send("cancel", d.originX, d.originY);
    d.view.moveTo(d.originX, d.originY, this.r.options.reducedMotion() ? 0 : 150);
    this.finish();
  }

  private finish(): void {
    const d = this.local;
    this.local = null;
    this.r.overlay.clear();
    this.distance.visible = false;
    this.r.viewport.plugins.resume("drag");
    this.r.viewport.plugins.resume("decelerate");
    if (d) {
      clearTimeout(d.timer);
      if (!d.view.destroyed) {
        d.view.cursor = "grab";
        d.view.zIndex = (d.view.token.elevation ?? 0) * 10 + 1;
      }
    }
    this.r.requestRender();
  }

  private send(state: Movement["state"], x: number, y: number, path?: number[]): void {
    const map = this.r.store.map;
    if (!map || !this.local) return;
    const m: Movement = { id: this.local.view.token.id, x, y, state };
    if (path) m.path = path;
    this.r.options.sendMove(m);
  }

  /** The path so far and the cell the token would land in. */
  private drawPath(): void {
    const d = this.local, map = this.r.store.map;
    const g = this.r.overlay;
    g.clear();
    if (!d || !map) return;
    g.moveTo(d.path[0], d.path[1]);
    for (let i = 2; i + 1 < d.path.length; i += 2) g.lineTo(d.path[i], d.path[i + 1]);
    g.lineTo(d.view.drawnX, d.view.drawnY);
    g.stroke({ width: 6, color: 0xffffff, alpha: 0.8, cap: "round", join: "round" });
    const spec = gridOf(map);
    const t = d.view.token;
    const at = snap(spec, d.view.drawnX, d.view.drawnY, t.width, t.height);
    if (spec.type === "square") {
      const w = Math.max(1, t.width ?? 1) * spec.size, h = Math.max(1, t.height ?? 1) * spec.size;
      g.rect(at.x - w / 2, at.y - h / 2, w, h);
    } else g.poly(hexCorners(spec, at.x, at.y), true);
    g.fill({ color: 0xffffff, alpha: 0.18 }).stroke({ width: 3, color: 0xffffff, alpha: 0.9 });
    // The distance from where the drag began, in the map's units, counted
    // in whole cells as the table counts moves.
    const dx = Math.abs(at.x - d.originX), dy = Math.abs(at.y - d.originY);
    // Square grids count a diagonal step as one cell, as the table does.
    const cells = Math.round((spec.type === "square" ? Math.max(dx, dy) : Math.hypot(dx, dy)) / spec.size);
    const unit = spec.size / pixelsPerUnit(map);
    this.distance.text = `${cells * unit} ${map.gridUnits ?? "ft"}`;
    this.distance.style.fontSize = Math.max(14, spec.size * 0.3);
    this.distance.position.set(at.x, at.y - (Math.max(1, t.height ?? 1) * spec.size) / 2);
    this.distance.visible = cells > 0;
  }

  /** A tokenMoved from the server: someone's drag (maybe our own echo), or a block. */
  remoteMove(m: Movement): void {
    const v = this.r.views.get(m.id);
    if (!v) return;
    const quick = this.r.options.reducedMotion();
    switch (m.state) {
      case "block": {
        // The host refused: back to where the token was, with a short glide.
        const back = this.pendingOrigin.get(m.id) ?? (this.local && this.isDragging(m.id) ? { x: this.local.originX, y: this.local.originY } : undefined);
        if (this.isDragging(m.id)) this.finish();
        this.pendingOrigin.delete(m.id);
        const t = v.token as Token;
        const x = back?.x ?? m.x, y = back?.y ?? m.y;
        t.x = x;
        t.y = y;
        v.moveTo(x, y, quick ? 0 : 200);
        break;
      }
      case "end":
        this.pendingOrigin.delete(m.id);
        if (!this.isDragging(m.id)) v.moveTo(m.x, m.y, quick ? 0 : 120);
        break;
      case "cancel":
        if (!this.isDragging(m.id)) v.moveTo(v.token.x, v.token.y, quick ? 0 : 150);
        break;
      default:
        // start/control from another client: drawn where it was sent, in
        // the next frame. A glide of one display frame toward it (60 Hz
        // steps between 30 controls a second) drew the token where the
        // other pointer was only one frame later, and on a slow page, whose
        // next frame comes long after the glide's time, a whole slow frame
        // later: twice the floor's latency (tests/perf/browser_perf_floor_test.go).
        // Our own drag's echoes (during it, or late after its end) are skipped.
        if (!this.isDragging(m.id) && !this.pendingOrigin.has(m.id)) {
          this.lastMoveAt = performance.now();
          v.jumpTo(m.x, m.y);
        }
    }
    this.r.requestRender();
  }
}
