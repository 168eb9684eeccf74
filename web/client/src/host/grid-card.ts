// The Grids card's grid part (maps-admin.ts builds the card): pick a map
// that waits for its grid, see its picture with the grid of the server's
// preview drawn over it, change and drag the grid, set it, show the map.
// Its rules are in grid-rules.ts.
import { errorText, hostAPI } from "../net/host-api";
import { busy, want } from "../ui/busy";
import { $, el, say, type Tone } from "./dom";
import { onHostEvent } from "./events";
import type { ImportResult } from "./types";
import {
  cellsText,
  draggedOffset,
  gridChange,
  gridStateText,
  gridTypeChoice,
  hexCentres,
  isMapPicture,
  maxHexCells,
  type GridPreview,
  type GridSettings,
} from "./grid-rules";

interface MapRow {
  id: string;
  name: string;
  gridPending?: boolean;
}

const FIELDS = ["grid-set", "grid-type", "grid-size", "grid-size-range", "grid-offset-x", "grid-offset-y", "grid-scale", "grid-units"];
const input = (id: string) => $<HTMLInputElement>(id);
const tell = (text: string, kind: Tone = "") => say("grid-msg", text, kind);

export function startGridCard(): { loadMaps: () => Promise<void> } {
  const grid = {
    maps: [] as MapRow[], // GET maps rows
    sig: "",
    mapId: "", // the map being set
    preview: null as GridPreview | null, // the last preview drawn
    media: null as HTMLImageElement | HTMLVideoElement | null, // loaded for preview.media.url
    mediaURL: "",
    asking: false, // a preview request is under way
    again: false, // the fields changed meanwhile
  };

  async function loadMaps(): Promise<void> {
    let maps: MapRow[];
    try {
      maps = await hostAPI("GET", "maps");
    } catch {
      return;
    }
    const sig = JSON.stringify(maps.map((m) => [m.id, m.name, !!m.gridPending]));
    if (sig === grid.sig) return;
    grid.sig = sig;
    grid.maps = maps;
    // Maps waiting for their grid first: those are the ones to set.
    const sorted = maps.slice().sort((a, b) => (b.gridPending ? 1 : 0) - (a.gridPending ? 1 : 0));
    const keep = grid.mapId;
    $("grid-map").replaceChildren(
      el("option", { value: "" }, sorted.length ? "Choose a map…" : "No map yet"),
      ...sorted.map((m) => el("option", { value: m.id, selected: m.id === keep }, m.name + (m.gridPending ? " — waits for its grid" : ""))),
    );
    if (!keep) {
      const waiting = sorted.find((m) => m.gridPending);
      if (waiting) openMap(waiting.id);
      else drawState();
    } else if (!maps.some((m) => m.id === keep)) {
      openMap("");
    }
  }

  function drawState(): void {
    const p = grid.mapId ? grid.preview : null;
    const st = $("grid-state");
    const s = gridStateText(grid.maps.filter((m) => m.gridPending).length, p);
    st.textContent = s.text;
    st.className = `state${s.tone ? ` ${s.tone}` : ""}`;
    st.dataset.pending = p?.gridPending ? "1" : "";
    for (const id of FIELDS) input(id).disabled = !p;
    want($<HTMLButtonElement>("grid-show"), !!p && !p.gridPending);
    const uvtt = $<HTMLAnchorElement>("grid-uvtt");
    uvtt.hidden = !grid.mapId;
    if (grid.mapId) uvtt.href = `/host/api/maps/${encodeURIComponent(grid.mapId)}/uvtt`;
  }

  async function openMap(id: string): Promise<void> {
    grid.mapId = id;
    grid.preview = null;
    $<HTMLSelectElement>("grid-map").value = id;
    tell("");
    if (!id) {
      drawState();
      paint();
      return;
    }
    try {
      const p = await hostAPI<GridPreview>("GET", `maps/${encodeURIComponent(id)}/grid`);
      if (grid.mapId !== id) return;
      showPreview(p, true);
    } catch (e) {
      tell(errorText(e), "bad");
    }
    drawState();
  }

  // showPreview draws an answer; fill puts its settings in the fields (not
  // while the person is changing them).
  function showPreview(p: GridPreview, fill: boolean): void {
    grid.preview = p;
    const g = p.grid;
    if (fill) {
      $<HTMLSelectElement>("grid-type").value = gridTypeChoice(g.gridType);
      input("grid-size").value = String(g.gridSize);
      input("grid-size-range").value = String(g.gridSize);
      input("grid-offset-x").value = String(g.gridOffsetX);
      input("grid-offset-y").value = String(g.gridOffsetY);
      input("grid-scale").value = String(g.gridScale);
      input("grid-units").value = g.gridUnits;
    }
    $("grid-cells").textContent = cellsText(p);
    loadMedia(p.media);
    paint();
    drawState();
  }

  function loadMedia(media: GridPreview["media"]): void {
    const url = media.kind === "none" ? "" : media.url || "";
    if (url === grid.mediaURL) return;
    grid.mediaURL = url;
    grid.media = null;
    if (!url) return;
    let node: HTMLImageElement | HTMLVideoElement;
    if (media.kind === "video") {
      const video = el("video", { muted: true, playsInline: true, preload: "auto" });
      // The first frame: drawn once decoded (loadeddata), and again after
      // a seek to the start, which a busy browser may need before a paused
      // video has a frame to give drawImage.
      const show = () => {
        if (grid.mediaURL === url && video.readyState >= 2) {
          grid.media = video;
          paint();
        }
      };
      video.addEventListener("loadedmetadata", () => {
        video.currentTime = 0;
      });
      for (const ev of ["loadeddata", "canplay", "seeked"]) video.addEventListener(ev, show);
      node = video;
    } else {
      const img = new Image();
      img.addEventListener("load", () => {
        if (grid.mediaURL === url) {
          grid.media = img;
          paint();
        }
      });
      node = img;
    }
    node.addEventListener("error", () => {
      if (grid.mediaURL === url) tell("The map's picture could not be loaded.", "bad");
    });
    node.src = url;
  }

  // view is how map pixels land on the canvas: the whole map fits.
  function view(): { canvas: HTMLCanvasElement; scale: number; width: number; height: number } {
    const canvas = $<HTMLCanvasElement>("grid-canvas");
    const p = grid.preview;
    const w = (p?.media.width) || 1,
      h = (p?.media.height) || 1;
    const avail = Math.max(200, Math.min(960, $("grid-stage").clientWidth || 640));
    const scale = Math.min(avail / w, 560 / h);
    return { canvas, scale, width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
  }

  // paint draws the picture and, over it, the grid of the last preview.
  // The lines are drawn twice, dark then light, so that they show on any
  // picture: this is for aligning by eye; players get the map's own grid
  // colour.
  function paint(): void {
    const v = view();
    const c = v.canvas;
    if (c.width !== v.width || c.height !== v.height) {
      c.width = v.width;
      c.height = v.height;
    }
    const ctx = c.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#d8d2c6";
    ctx.fillRect(0, 0, c.width, c.height);
    const p = grid.preview;
    if (!p) return;
    if (grid.media) {
      try {
        ctx.drawImage(grid.media, 0, 0, c.width, c.height);
      } catch {
        /* not decodable yet */
      }
    }
    ctx.setTransform(v.scale, 0, 0, v.scale, 0, 0);
    const path = new Path2D();
    const W = p.media.width,
      H = p.media.height;
    if (p.lines) {
      for (const x of p.lines.x) {
        path.moveTo(x, 0);
        path.lineTo(x, H);
      }
      for (const y of p.lines.y) {
        path.moveTo(0, y);
        path.lineTo(W, y);
      }
    } else if (p.hex) {
      const hx = p.hex;
      if (hx.columns * hx.rows > maxHexCells) {
        tell("The cells are too small to draw at this size.", "bad");
      } else {
        for (const { x, y } of hexCentres(hx)) {
          path.moveTo(x + hx.corners[0], y + hx.corners[1]);
          for (let k = 2; k < 12; k += 2) path.lineTo(x + hx.corners[k], y + hx.corners[k + 1]);
          path.closePath();
        }
      }
    }
    ctx.lineWidth = 3 / v.scale;
    ctx.strokeStyle = "rgba(0, 0, 0, 0.55)";
    ctx.stroke(path);
    ctx.lineWidth = 1 / v.scale;
    ctx.strokeStyle = "rgba(255, 236, 120, 0.95)";
    ctx.stroke(path);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    c.dataset.gridSize = String(p.grid.gridSize);
    c.dataset.gridType = p.grid.gridType;
    c.dataset.offset = `${p.grid.gridOffsetX},${p.grid.gridOffsetY}`;
  }

  // change is the grid change the fields describe.
  function change(): GridSettings {
    return gridChange({
      size: input("grid-size").value,
      offsetX: input("grid-offset-x").value,
      offsetY: input("grid-offset-y").value,
      type: $<HTMLSelectElement>("grid-type").value,
      scale: input("grid-scale").value,
      units: input("grid-units").value,
    });
  }

  // ask previews the fields' grid: one request at a time, the latest
  // fields once it answers, so a drag never queues a backlog.
  async function ask(): Promise<void> {
    if (!grid.mapId) return;
    if (grid.asking) {
      grid.again = true;
      return;
    }
    grid.asking = true;
    const id = grid.mapId;
    try {
      do {
        grid.again = false;
        try {
          const p = await hostAPI<GridPreview>("POST", `maps/${encodeURIComponent(id)}/grid/preview`, change());
          if (grid.mapId !== id) return;
          tell("");
          showPreview(p, false);
        } catch (e) {
          if (grid.mapId === id) tell(errorText(e), "bad");
        }
      } while (grid.again && grid.mapId === id);
    } finally {
      grid.asking = false;
    }
  }

  async function importPicture(file: File): Promise<void> {
    if (!isMapPicture(file.name)) {
      tell(`“${file.name}” is not a picture or a video (png, jpeg, webp, gif, mp4, webm).`, "bad");
      return;
    }
    const form = new FormData();
    form.append("file", file, file.name);
    tell(`Importing ${file.name}…`);
    try {
      const res = await hostAPI<ImportResult>("POST", "import", form);
      if (res.kind !== "map") {
        tell(`Imported ${res.kind} “${res.name}”.`, "good");
        return;
      }
      tell(`“${res.name}” is a new map: set its grid.`, "good");
      grid.sig = "";
      await loadMaps();
      await openMap(res.id);
      tell(`“${res.name}” is a new map: set its grid.`, "good");
    } catch (e) {
      tell(errorText(e), "bad");
    }
  }

  // ---- wiring -----------------------------------------------------------------

  $<HTMLSelectElement>("grid-map").addEventListener("change", (ev) => openMap((ev.target as HTMLSelectElement).value));
  const sizeBox = input("grid-size"),
    range = input("grid-size-range");
  sizeBox.addEventListener("input", () => {
    range.value = sizeBox.value;
    ask();
  });
  range.addEventListener("input", () => {
    sizeBox.value = range.value;
    ask();
  });
  for (const id of ["grid-type", "grid-offset-x", "grid-offset-y", "grid-scale", "grid-units"]) {
    $(id).addEventListener("input", ask);
    $(id).addEventListener("change", ask);
  }

  // Dragging the picture moves the grid with the pointer.
  const canvas = $<HTMLCanvasElement>("grid-canvas");
  let drag: { x: number; y: number; ox: number; oy: number } | null = null;
  canvas.addEventListener("pointerdown", (ev) => {
    if (!grid.preview || !grid.mapId) return;
    drag = { x: ev.clientX, y: ev.clientY, ox: Number(input("grid-offset-x").value) || 0, oy: Number(input("grid-offset-y").value) || 0 };
    canvas.setPointerCapture(ev.pointerId);
  });
  canvas.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const o = draggedOffset(drag, ev.clientX - drag.x, ev.clientY - drag.y, view().scale);
    input("grid-offset-x").value = String(o.x);
    input("grid-offset-y").value = String(o.y);
    ask();
  });
  const end = () => {
    drag = null;
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);

  const set = $<HTMLButtonElement>("grid-set");
  set.addEventListener("click", () =>
    busy(set, async () => {
      const id = grid.mapId;
      if (!id) return;
      try {
        const p = await hostAPI<GridPreview>("PUT", `maps/${encodeURIComponent(id)}/grid`, change());
        if (grid.mapId === id) showPreview(p, true);
        tell(`Grid set: ${p.cells.across} × ${p.cells.down} cells.`, "good");
        grid.sig = "";
        await loadMaps();
      } catch (e) {
        tell(errorText(e), "bad");
      }
    }),
  );
  const show = $<HTMLButtonElement>("grid-show");
  show.addEventListener("click", () =>
    busy(show, async () => {
      if (!grid.mapId) return;
      try {
        await hostAPI("POST", "screen", { mapId: grid.mapId });
        tell(`“${grid.preview ? grid.preview.name : "The map"}” is on the player screen.`, "good");
      } catch (e) {
        tell(errorText(e), "bad");
      }
    }),
  );

  // A picture chosen or dropped is imported as a map (into the primary
  // campaign) and opened here.
  const file = input("grid-file");
  file.addEventListener("change", () => {
    const f = file.files?.[0];
    if (f)
      importPicture(f).then(() => {
        file.value = "";
      });
  });
  const panel = $("grid-panel");
  panel.addEventListener("dragover", (ev) => {
    if (ev.dataTransfer && [...ev.dataTransfer.types].includes("Files")) {
      ev.preventDefault();
      panel.classList.add("ma-drop");
    }
  });
  panel.addEventListener("dragleave", () => panel.classList.remove("ma-drop"));
  panel.addEventListener("drop", (ev) => {
    panel.classList.remove("ma-drop");
    const f = ev.dataTransfer?.files[0];
    if (!f) return;
    ev.preventDefault();
    importPicture(f);
  });
  window.addEventListener("resize", () => paint());
  // The map list changes with imports made elsewhere on the page.
  onHostEvent((name) => {
    if (name === "mapLoaded" || name === "screenUpdated" || name === "reload") loadMaps();
  });

  drawState();
  paint();
  return { loadMaps };
}
