// window.companionDebug: the stable test hook the browser tests read (see
// web/client/README.md). It reports what is drawn, from the renderer's
// own state, so a test can check the page without guessing at pixels.
import type { MapRenderer } from "./map/renderer";
import { doorMidpoints } from "./map/objects";
import type { Socket } from "./net/socket";
import type { Store } from "./state/store";
import type { TableUI } from "./ui/table";

export interface DebugContext {
  store: Store;
  socket: () => Socket | null;
  renderer: () => MapRenderer | null;
  joined: () => boolean;
  runMode: () => "normal" | "display";
  lastError: () => string | null;
  /** The table around the map (initiative, chat, pointers, ruler, overlays); null before joining. */
  table?: () => TableUI | null;
  /** The table's sound (sound/player.ts): what each element plays and where; null before joining. */
  sound?: () => unknown;
}

export function installDebug(ctx: DebugContext): void {
  const api = {
    state() {
      const r = ctx.renderer();
      const s = ctx.store;
      const map = s.map;
      const tokens = [...s.tokens.values()].map((t) => {
        const v = r?.views.get(t.id);
        const drawnX = v?.drawnX ?? t.x, drawnY = v?.drawnY ?? t.y;
        return {
          id: t.id, name: t.name ?? "", label: t.label ?? "", x: t.x, y: t.y, drawnX, drawnY,
          width: t.width ?? 1, height: t.height ?? 1, rotation: t.rotation ?? 0,
          hasImage: v?.hasImage ?? false, badge: v?.badgeText ?? "",
          visible: !!v && !v.destroyed && v.visible && !!r && r.isVisibleAt(drawnX, drawnY),
        };
      });
      const vp = r?.viewport;
      return {
        connection: ctx.socket()?.state ?? "connecting",
        joined: ctx.joined(),
        runMode: ctx.runMode(),
        paused: s.paused,
        snapshots: s.loads,
        interaction: s.interaction,
        map: map ? {
          id: map.id, name: map.name ?? "", width: map.width ?? 0, height: map.height ?? 0,
          gridType: map.gridType ?? "square", gridSize: map.gridSize ?? 0, backgroundLoaded: r?.backgroundLoaded ?? false,
          backgroundTiles: r?.backgroundTiles ?? null,
        } : null,
        tokens,
        doors: map ? doorMidpoints(map.walls) : [],
        vision: { lineOfSight: !!map?.lineOfSight, polygons: s.sights.size, fog: !!map?.fogOfWar },
        viewport: vp ? { centerX: vp.center.x, centerY: vp.center.y, zoom: vp.scaled } : { centerX: 0, centerY: 0, zoom: 1 },
        // Marks: each template's squares as the server measured them, and the tokens in them.
        marks: {
          areaEffects: (map?.areaEffects ?? []).map((e) => ({ id: e.id, shape: e.shape ?? "", squares: r?.templateSquares.get(e.id) ?? null })),
          drawings: (map?.drawings ?? []).map((d) => ({ id: d.id, layer: d.layer ?? "", text: d.text ?? "" })),
          measurements: (map?.measurements ?? []).map((m) => ({ id: m.id, data: m.data, distance: m.distance ?? "" })),
          markers: (map?.markers ?? []).map((m) => ({ id: m.id, x: m.x, y: m.y, reference: m.reference ?? "" })),
          inside: ctx.table?.()?.marks.inside ?? [],
        },
        frames: r?.frames ?? 0,
        quality: r ? {
          level: r.quality.level, lowered: r.quality.lowered, pinned: r.quality.pinned, antialias: r.quality.antialias,
          resolution: r.app.renderer.resolution, darkness: r.darknessMaskSide, darknessShown: r.darknessShownSide, darknessBakes: r.darknessBakes, lightsApart: r.darknessLightsApart, maxTextureSize: r.textureLimit,
          animating: r.animating, replayedFrames: r.replayedFrames, notice: !!document.querySelector(".quality-notice:not([hidden])"),
        } : null,
        lastError: r?.lastError ?? ctx.lastError(),
      };
    },
    /** The first frame that drew the map with its background: when it ended, and its tokens (null before). */
    mapFrame() {
      return ctx.renderer()?.firstMapFrame ?? null;
    },
    mapToScreen(x: number, y: number) {
      return ctx.renderer()?.mapToScreen(x, y) ?? { x: NaN, y: NaN };
    },
    screenToMap(x: number, y: number) {
      return ctx.renderer()?.screenToMap(x, y) ?? { x: NaN, y: NaN };
    },
    isVisibleAt(x: number, y: number) {
      return ctx.renderer()?.isVisibleAt(x, y) ?? false;
    },
    table() {
      return ctx.table?.()?.debug() ?? null;
    },
    sound() {
      return ctx.sound?.() ?? null;
    },
    /** Measures along map points [x, y, x, y, …] as ruler clicks would; tests should prefer real input. */
    rulerFromTo(mapPoints: number[]) {
      return ctx.table?.()?.ruler.measure(mapPoints) ?? null;
    },
    idle(): Promise<void> {
      // Events are applied as they arrive; wait for the next drawn frame.
      const r = ctx.renderer();
      return r ? r.idle() : new Promise((res) => setTimeout(res, 16));
    },
  };
  (window as unknown as { companionDebug: typeof api }).companionDebug = api;
}
