// The GM map's tools: Move (drag tokens, pan), fog reveal or cover with a
// rectangle or a brush, Focus (the players' displays look at a point), and
// the drawing tools: Wall (a polyline: click its points, snapped to wall
// ends and grid corners; Enter or a double click ends it, Escape drops
// it), Door (two clicks), Light (a click), Sound (a click: an ambient
// sound of the audio library, heard around that point) and Erase (a click
// on a wall, a light or a sound), with undo and redo of the last edits
// (drawing.ts). The map's ambient sounds are drawn here, as the game
// master's marks (a ring of their reach, faded when hidden). While a
// tool other than Move is chosen, a press on the map draws with it
// instead of panning, and tokens stay put.
import { Graphics } from "pixi.js";
import { hiddenAlpha } from "../map/objects";
import type { MapRenderer } from "../map/renderer";
import type { Store } from "../state/store";
import { gridOf } from "../map/grid";
import { hostAPI } from "../net/host-api";
import { extendBrush, fogEdit } from "./edits";
import { EditHistory, type Edit, type MapObject, type Point, lightFrom, objectAt, requestFor, snapPoint, soundFrom, splitWall, vertexAt, wallFrom, withVertexMoved } from "./drawing";

export type Tool = "move" | "reveal-rect" | "cover-rect" | "reveal-brush" | "cover-brush" | "focus" | "wall" | "door" | "light" | "sound" | "erase";

const toolNames: [Tool, string, string][] = [
  ["move", "Move", "Drag tokens and pan the map"],
  ["reveal-rect", "Reveal ▭", "Drag a rectangle to reveal fog"],
  ["cover-rect", "Cover ▭", "Drag a rectangle to cover with fog"],
  ["reveal-brush", "Reveal ✎", "Paint to reveal fog"],
  ["cover-brush", "Cover ✎", "Paint to cover with fog"],
  ["focus", "Focus ◎", "Click a point: the players' displays look there"],
  ["wall", "Wall ╱", "Click the points of a wall (they snap to wall ends and the grid); Enter or a double click ends it, Escape drops it. Drag a wall's point to move it; Shift+click a wall to split it there"],
  ["door", "Door ▯", "Click the two ends of a door"],
  ["light", "Light ☀", "Click where a light goes"],
  ["sound", "Sound ♪", "Click where an ambient sound of the audio library plays: players hear it by their tokens' distance"],
  ["erase", "Erase ✕", "Click a wall, a door, a light or a sound to delete it"],
];

// The drawing options, beside the tools: the wall and door types, the
// light's radii (grid units), colour and intensity, undo and redo, the
// map's own line of sight, and whose sight players see (the player
// screen's sharedVision: the party's, the acting one's, each seat's own).
const drawOptions = `
  <label data-for="wall">Wall <select id="gm-wall-type"><option value="normal">wall</option><option value="window">window</option>
    <option value="invisible">invisible</option><option value="ethereal">ethereal</option><option value="terrain">terrain</option></select></label>
  <label data-for="door">Door <select id="gm-door-type"><option value="door">door</option><option value="secretDoor">secret door</option></select></label>
  <label data-for="light">Bright <input id="gm-light-bright" type="number" min="0" max="1000" step="1" value="4" size="4"></label>
  <label data-for="light">Dim <input id="gm-light-dim" type="number" min="0" max="1000" step="1" value="8" size="4"></label>
  <label data-for="light">Colour <input id="gm-light-color" type="color" value="#ffe08a"></label>
  <label data-for="light">Intensity <input id="gm-light-intensity" type="range" min="0" max="1" step="0.05" value="0.5"></label>
  <label data-for="sound">Sound <select id="gm-sound-file"></select></label>
  <label data-for="sound">Reach <input id="gm-sound-radius" type="number" min="1" max="1000" step="1" value="6" size="3" title="grid units"></label>
  <label data-for="sound"><input type="checkbox" id="gm-sound-hidden"> Hidden</label>
  <button type="button" id="gm-undo" title="Undo the last wall, door or light edit (Ctrl+Z)" disabled>Undo</button>
  <button type="button" id="gm-redo" title="Redo (Ctrl+Shift+Z)" disabled>Redo</button>
  <label><input type="checkbox" id="gm-los"> Line of sight</label>
  <label>Daylight <input id="gm-daylight" type="number" min="0" max="1" step="0.1" size="3"></label>
  <label>Vision limit <input id="gm-vision-limit" type="number" min="-1" max="1000" step="5" size="4" title="grid units; -1: none"></label>
  <label title="Whose sight players see on the player screen">Party vision <select id="gm-shared-vision">
    <option value="always">shared</option><option value="partial">the acting player's</option><option value="never">each seat's own</option></select></label>`;

/** What the GM map says once a party vision is chosen. */
const visionSaid: Record<string, string> = {
  always: "Players see with the whole party's tokens.",
  partial: "Out of combat players see with the whole party's tokens; in combat with the acting one's and their own.",
  never: "Each player sees with their own tokens only.",
};

/** The tools that draw (their options show while one is chosen). */
const drawingTools: Tool[] = ["wall", "door", "light", "sound", "erase"];

export class MapTools {
  tool: Tool = "move";
  private r: MapRenderer | null = null;
  private preview = new Graphics();
  /** The map's ambient sounds, drawn for the game master. */
  private soundMarks = new Graphics();
  private stroke: { x0: number; y0: number; x: number; y: number; path: number[]; pointer: number } | null = null;
  /** The points of the wall or door being drawn, and where the pointer is. */
  private points: Point[] = [];
  private hover: Point | null = null;
  /**
   * A wall point pressed with the wall tool: dragged past a few pixels it
   * moves (moved holds where), released in place it is a click that starts
   * or continues a wall there.
   */
  private grab: { wall: MapObject; index: number; pointer: number; sx: number; sy: number; at: Point; moved: MapObject | null } | null = null;
  readonly history = new EditHistory();
  private options: HTMLElement | null = null;

  /**
   * Shows the drawing options while a drawing tool is chosen, each only
   * for its own tool (data-for): the toolbar stays short while moving.
   */
  private showOptions(): void {
    const g = this.options;
    if (!g) return;
    g.hidden = !drawingTools.includes(this.tool);
    for (const el of g.querySelectorAll<HTMLElement>("[data-for]")) el.hidden = el.dataset.for !== this.tool;
  }

  constructor(private store: Store, private renderer: () => MapRenderer | null, private say: (t: string, bad?: boolean) => void) {
    store.subscribe((c) => {
      if (c.kind === "map" || c.kind === "screen") this.syncSettings();
      if (c.kind === "map" || (c.kind === "objects" && c.layer === "sounds")) this.drawSounds();
    });
  }

  /** Attaches the drawing options (drawOptions) to their group of the toolbar. */
  attachOptions(group: HTMLElement): void {
    group.innerHTML = drawOptions;
    this.options = group;
    this.showOptions();
    const el = <T extends HTMLElement>(id: string) => group.querySelector<T>(`#${id}`)!;
    el("gm-undo").addEventListener("click", () => this.step("undo"));
    el("gm-redo").addEventListener("click", () => this.step("redo"));
    const settings = () => {
      const map = this.store.map;
      if (!map) return;
      const body: Record<string, unknown> = { lineOfSight: el<HTMLInputElement>("gm-los").checked };
      const daylight = Number.parseFloat(el<HTMLInputElement>("gm-daylight").value);
      const limit = Number.parseInt(el<HTMLInputElement>("gm-vision-limit").value, 10);
      if (Number.isFinite(daylight)) body.losDaylight = daylight;
      if (Number.isFinite(limit)) body.losVisionLimit = limit;
      hostAPI("PATCH", `maps/${encodeURIComponent(map.id)}`, body).then(
        () => this.say(body.lineOfSight ? "Line of sight is on for this map." : "Line of sight is off for this map."),
        (err: Error) => this.say(err.message, true));
    };
    for (const id of ["gm-los", "gm-daylight", "gm-vision-limit"]) el(id).addEventListener("change", settings);
    el<HTMLSelectElement>("gm-shared-vision").addEventListener("change", (e) => {
      const sharedVision = (e.target as HTMLSelectElement).value;
      hostAPI("PUT", "screen/vision", { sharedVision }).then(
        () => this.say(visionSaid[sharedVision] ?? "Party vision changed."),
        (err: Error) => this.say(err.message, true));
    });
    window.addEventListener("keydown", (e) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement;
      if (typing) return;
      if (this.tool === "wall" && e.key === "Enter") this.finishWall();
      else if ((this.tool === "wall" || this.tool === "door") && e.key === "Escape") this.dropWall();
      else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
        e.preventDefault();
        this.step(e.shiftKey ? "redo" : "undo");
      }
    });
    this.syncSettings();
  }

  /** The map's line of sight settings, shown as the map has them. */
  private syncSettings(): void {
    const map = this.store.map;
    const los = document.getElementById("gm-los") as HTMLInputElement | null;
    if (!los) return;
    los.checked = !!map?.lineOfSight;
    (document.getElementById("gm-daylight") as HTMLInputElement).value = map ? String(map.losDaylight ?? 0) : "";
    (document.getElementById("gm-vision-limit") as HTMLInputElement).value = map ? String(map.losVisionLimit ?? -1) : "";
    (document.getElementById("gm-shared-vision") as HTMLSelectElement).value = this.store.screen.sharedVision || "always";
  }

  /** Sends an edit to the server; the map redraws from the broadcast. */
  private async apply(e: Edit): Promise<MapObject | null> {
    const req = requestFor(e);
    return hostAPI<MapObject | null>(req.method, req.path, req.body);
  }

  /** Records an edit sent and done, for undo. */
  private record(e: Edit): void {
    this.history.push(e);
    this.syncHistory();
  }

  private syncHistory(): void {
    const undo = document.getElementById("gm-undo") as HTMLButtonElement | null;
    const redo = document.getElementById("gm-redo") as HTMLButtonElement | null;
    if (undo) undo.disabled = !this.history.canUndo;
    if (redo) redo.disabled = !this.history.canRedo;
  }

  /** Undoes or redoes the last edit. */
  async step(which: "undo" | "redo"): Promise<void> {
    const e = which === "undo" ? this.history.undo() : this.history.redo();
    if (!e) return;
    try {
      await this.apply(e);
      this.say(which === "undo" ? "Undone." : "Redone.");
    } catch (err) {
      this.history.failed(which);
      this.say((err as Error).message, true);
    }
    this.syncHistory();
  }

  /** Adds an object of a kind to the map shown, and records it. */
  private async add(kind: string, object: Record<string, unknown>, what: string): Promise<void> {
    const map = this.store.map;
    if (!map) return;
    try {
      const created = await hostAPI<MapObject>("POST", `maps/${encodeURIComponent(map.id)}/${kind}`, object);
      this.record({ mapId: map.id, kind, before: null, after: created });
      this.say(`${what} added.`);
    } catch (err) {
      this.say((err as Error).message, true);
    }
  }

  /** Where a point lands (snapPoint), leaving out the wall whose id is except (the one being moved). */
  private snap(p: Point, except = ""): Point {
    const map = this.store.map;
    const scale = this.r?.viewport.scale.x || 1;
    const grid = map && (map.gridType ?? "square") === "square" ? gridOf(map) : null;
    const walls = map?.walls ?? [];
    return snapPoint(p, except ? walls.filter((w) => w.id !== except) : walls, grid, 14 / scale);
  }

  private walls(): MapObject[] {
    return (this.store.map?.walls ?? []) as unknown as MapObject[];
  }

  /** Changes a wall (a moved point, a split) and records it for undo. */
  private async changeWall(before: MapObject, after: MapObject, what: string): Promise<void> {
    const map = this.store.map;
    if (!map) return;
    const edit: Edit = { mapId: map.id, kind: "walls", before, after };
    try {
      await this.apply(edit);
      this.record(edit);
      this.say(what);
    } catch (err) {
      this.say((err as Error).message, true);
    }
  }

  private finishWall(): void {
    const wall = wallFrom(this.points, (document.getElementById("gm-wall-type") as HTMLSelectElement | null)?.value ?? "normal");
    this.points = [];
    this.hover = null;
    this.draw();
    if (wall) this.add("walls", wall, "Wall");
  }

  private dropWall(): void {
    this.points = [];
    this.hover = null;
    this.draw();
  }

  attach(r: MapRenderer, bar: HTMLElement): void {
    this.r = r;
    r.gmLayer.addChild(this.soundMarks, this.preview);
    this.drawSounds();
    for (const [tool, label, title] of toolNames) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.tool = tool;
      b.textContent = label;
      b.title = title;
      b.setAttribute("aria-pressed", String(tool === this.tool));
      b.addEventListener("click", () => this.choose(tool));
      bar.appendChild(b);
    }
    const canvas = r.app.canvas;
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", () => this.abort());
    canvas.addEventListener("dblclick", () => {
      if (this.tool === "wall") this.finishWall();
    });
  }

  choose(tool: Tool): void {
    if (this.tool === "wall" && tool !== "wall") this.finishWall(); // a wall in progress is kept
    this.tool = tool;
    this.points = [];
    this.showOptions();
    if (tool === "sound") this.loadSounds();
    this.abort();
    for (const b of document.querySelectorAll<HTMLButtonElement>("[data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
    const vp = this.r?.viewport;
    if (vp) {
      if (tool === "move") vp.plugins.resume("drag");
      else vp.plugins.pause("drag");
    }
  }

  private brushRadius(): number {
    const map = this.store.map;
    return map ? gridOf(map).size : 50;
  }

  private down(e: PointerEvent): void {
    if (this.tool === "move" || !this.r || !this.store.map || e.button !== 0) return;
    const p = this.r.screenToMap(e.clientX, e.clientY);
    if (this.tool === "wall" && this.points.length === 0 && this.wallPress(p, e)) return;
    if (this.drawTool(p)) return;
    if (this.tool === "focus") {
      hostAPI("POST", "screen/focus", { x: Math.round(p.x), y: Math.round(p.y) }).then(
        () => this.say(`The players' displays look at ${Math.round(p.x)}, ${Math.round(p.y)}.`),
        (err: Error) => this.say(err.message, true));
      return;
    }
    this.stroke = { x0: p.x, y0: p.y, x: p.x, y: p.y, path: [Math.round(p.x), Math.round(p.y)], pointer: e.pointerId };
    this.draw();
  }

  /**
   * A press of the wall tool with no wall in progress: Shift splits the
   * wall there; on a wall's point it grabs the point (up() decides whether
   * it was a move or a click). false when it is neither.
   */
  private wallPress(p: Point, e: PointerEvent): boolean {
    const scale = this.r?.viewport.scale.x || 1;
    const reach = 12 / scale;
    const near = vertexAt(p, this.walls(), reach);
    if (e.shiftKey) {
      const split = near ? null : splitWall(p, this.walls(), reach);
      if (!split) {
        this.say(near ? "The wall has a point there already: drag it to move it." : "No wall to split there: Shift+click on a wall.");
        return true;
      }
      const before = this.walls().find((w) => w.id === split.id);
      if (before) this.changeWall(before, split, "Wall split: drag the new point to bend it.");
      return true;
    }
    if (!near) return false;
    this.grab = { wall: near.wall, index: near.index, pointer: e.pointerId, sx: e.clientX, sy: e.clientY, at: p, moved: null };
    return true;
  }

  /** A press of a drawing tool at p; false for the other tools. */
  private drawTool(p: Point): boolean {
    const map = this.store.map;
    if (!map) return false;
    switch (this.tool) {
      case "wall":
        this.points.push(this.snap(p));
        this.draw();
        return true;
      case "door": {
        this.points.push(this.snap(p));
        if (this.points.length === 2) {
          const door = wallFrom(this.points, (document.getElementById("gm-door-type") as HTMLSelectElement | null)?.value ?? "door");
          this.points = [];
          this.hover = null;
          if (door) this.add("walls", door, "Door");
        }
        this.draw();
        return true;
      }
      case "light": {
        const num = (id: string, d: number) => {
          const v = Number.parseFloat((document.getElementById(id) as HTMLInputElement | null)?.value ?? "");
          return Number.isFinite(v) ? v : d;
        };
        const color = (document.getElementById("gm-light-color") as HTMLInputElement | null)?.value ?? "#ffe08a";
        this.add("lights", lightFrom(p, num("gm-light-bright", 4), num("gm-light-dim", 8), color, num("gm-light-intensity", 0.5)), "Light");
        return true;
      }
      case "sound": {
        const url = (document.getElementById("gm-sound-file") as HTMLSelectElement | null)?.value ?? "";
        if (!url) {
          this.say("No sound to place: upload one in the Sound card first.", true);
          return true;
        }
        const radius = Number.parseFloat((document.getElementById("gm-sound-radius") as HTMLInputElement | null)?.value ?? "");
        const hidden = (document.getElementById("gm-sound-hidden") as HTMLInputElement | null)?.checked ?? false;
        this.add("sounds", soundFrom(p, url, Number.isFinite(radius) ? radius : 6, hidden), "Sound");
        return true;
      }
      case "erase": {
        const scale = this.r?.viewport.scale.x || 1;
        const sounds = ((map as { sounds?: unknown[] }).sounds ?? []) as MapObject[];
        const hit = objectAt(p, (map.walls ?? []) as unknown as MapObject[], (map.lights ?? []) as unknown as MapObject[], 12 / scale, sounds);
        if (!hit) {
          this.say("Nothing to erase there: click on a wall, a door, a light or a sound.");
          return true;
        }
        const edit: Edit = { mapId: map.id, kind: hit.kind, before: hit.object, after: null };
        this.apply(edit).then(() => {
          this.record(edit);
          this.say(hit.kind === "lights" ? "Light deleted." : hit.kind === "sounds" ? "Sound deleted." : "Wall deleted.");
        }, (err: Error) => this.say(err.message, true));
        return true;
      }
      default:
        return false;
    }
  }

  private move(e: PointerEvent): void {
    const g = this.grab;
    if (g && this.r && e.pointerId === g.pointer) {
      if (!g.moved && Math.hypot(e.clientX - g.sx, e.clientY - g.sy) < 4) return; // not a drag yet
      g.moved = withVertexMoved(g.wall, g.index, this.snap(this.r.screenToMap(e.clientX, e.clientY), g.wall.id));
      this.draw();
      return;
    }
    if ((this.tool === "wall" || this.tool === "door") && this.r && this.points.length > 0) {
      this.hover = this.snap(this.r.screenToMap(e.clientX, e.clientY));
      this.draw();
      return;
    }
    const s = this.stroke;
    if (!s || !this.r || e.pointerId !== s.pointer) return;
    const p = this.r.screenToMap(e.clientX, e.clientY);
    s.x = p.x;
    s.y = p.y;
    extendBrush(s.path, p.x, p.y, this.brushRadius());
    this.draw();
  }

  private up(e: PointerEvent): void {
    const g = this.grab;
    if (g && e.pointerId === g.pointer) {
      this.grab = null;
      this.draw();
      if (g.moved) this.changeWall(g.wall, g.moved, "Wall point moved.");
      else this.drawTool(g.at); // a click on a wall's end: a new wall from there
      return;
    }
    const s = this.stroke;
    const map = this.store.map;
    if (!s || !map || e.pointerId !== s.pointer) return;
    this.stroke = null;
    this.draw();
    const body = fogEdit(this.tool, s, this.brushRadius(), !!map.fogOfWar);
    if (!body) return;
    const mode = body.mode;
    hostAPI("POST", `maps/${encodeURIComponent(map.id)}/fog`, body).then(
      () => this.say(mode === "reveal" ? "Fog revealed." : "Fog covered."),
      (err: Error) => this.say(err.message, true));
  }

  private abort(): void {
    this.stroke = null;
    this.grab = null;
    this.draw();
  }

  /** Fills the Sound tool's choice with the audio library's files. */
  private async loadSounds(): Promise<void> {
    const select = document.getElementById("gm-sound-file") as HTMLSelectElement | null;
    if (!select) return;
    try {
      const tracks = await hostAPI<{ url: string; name: string }[]>("GET", "audio");
      const keep = select.value;
      select.replaceChildren(...tracks.map((t) => new Option(t.name, t.url, false, t.url === keep)));
      if (tracks.length === 0) this.say("The audio library is empty: upload a sound in the Sound card first.");
    } catch (err) {
      this.say((err as Error).message, true);
    }
  }

  /** Draws each ambient sound: a dot where it plays and a ring at its reach (grid units). */
  private drawSounds(): void {
    const g = this.soundMarks;
    g.clear();
    const map = this.store.map;
    const cell = map ? gridOf(map).size : 50;
    for (const o of ((map as { sounds?: Record<string, unknown>[] } | null)?.sounds ?? [])) {
      const x = Number(o.x), y = Number(o.y), r = Number(o.radius) * cell;
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      const alpha = o.hidden === true ? hiddenAlpha : 1;
      if (Number.isFinite(r) && r > 0) g.circle(x, y, r).fill({ color: 0x4fc3ff, alpha: 0.08 * alpha }).stroke({ width: 3, color: 0x4fc3ff, alpha: 0.8 * alpha });
      g.circle(x, y, Math.max(8, cell / 5)).fill({ color: 0x0b3d5c, alpha }).stroke({ width: 3, color: 0x4fc3ff, alpha });
    }
    this.renderer()?.requestRender();
  }

  private draw(): void {
    const s = this.stroke;
    this.preview.clear();
    if (this.points.length > 0) {
      const pts = this.hover ? [...this.points, this.hover] : this.points;
      this.preview.moveTo(pts[0].x, pts[0].y);
      for (const q of pts.slice(1)) this.preview.lineTo(q.x, q.y);
      this.preview.stroke({ width: 3, color: this.tool === "door" ? 0xffcc00 : 0x4fc3ff, alpha: 0.9 });
      for (const q of this.points) this.preview.circle(q.x, q.y, 5).fill({ color: 0xffffff, alpha: 0.9 });
    }
    const moved = this.grab?.moved;
    const d = moved && Array.isArray(moved.data) ? (moved.data as number[]) : [];
    if (d.length >= 4) {
      this.preview.moveTo(d[0], d[1]);
      for (let i = 2; i + 1 < d.length; i += 2) this.preview.lineTo(d[i], d[i + 1]);
      this.preview.stroke({ width: 4, color: 0x4fc3ff, alpha: 0.9 });
      const i = this.grab!.index;
      this.preview.circle(d[i], d[i + 1], 6).fill({ color: 0xffffff, alpha: 0.9 });
    }
    if (s) {
      const color = this.tool.startsWith("reveal") ? 0xffffff : 0x000000;
      if (this.tool.endsWith("rect")) {
        this.preview.rect(Math.min(s.x0, s.x), Math.min(s.y0, s.y), Math.abs(s.x - s.x0), Math.abs(s.y - s.y0))
          .fill({ color, alpha: 0.3 }).stroke({ width: 3, color: 0xffcc00 });
      } else {
        for (let i = 0; i + 1 < s.path.length; i += 2) this.preview.circle(s.path[i], s.path[i + 1], this.brushRadius()).fill({ color, alpha: 0.3 });
      }
    }
    this.renderer()?.requestRender();
  }
}
