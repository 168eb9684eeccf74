// Companion host console: maps from pictures, exports and backups.
//
// Kept apart from console.js (which only loads this file) so that its
// sections can change without touching the rest of the page. It builds
// its own card, after the Campaign card:
//
//   - Grid: a map made from an image or a video waits for its grid
//     (gridPending) and cannot go on the player screen. The game master
//     picks it, sees the picture with the grid drawn over it, changes the
//     cell size and drags the grid (its offset) until the lines sit on the
//     picture's own, then sets it. Every change asks the server for the
//     preview (POST /host/api/maps/{id}/grid/preview, nothing stored), so
//     what is drawn is the geometry the player client will draw. A picture
//     dropped on the card is imported as such a map and opened here.
//   - Export: a download link per module and campaign
//     (GET /host/api/{modules|campaigns}/{id}/export).
//   - Backups: "Back up now" (POST /host/api/backups) and the list of
//     backups in the data folder.
//
// All text from the server goes in through textContent, never as HTML.
(() => {
  "use strict";

  const byId = (id) => document.getElementById(id);

  function make(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.includes("-")) node.setAttribute(k, v === true ? "" : String(v));
      else node[k] = v;
    }
    for (const c of children) {
      if (c === undefined || c === null || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  // call is the host API: decoded JSON, or an Error carrying the server's
  // own explanation and the status.
  async function call(method, path, body) {
    const init = { method, headers: {} };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch("/host/api/" + path, init);
    } catch (e) {
      const err = new Error("The server is not answering.");
      err.status = 0;
      throw err;
    }
    const text = await resp.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
    if (!resp.ok) {
      const err = new Error((data && (data.message || data.error)) || resp.status + " " + resp.statusText);
      err.status = resp.status;
      throw err;
    }
    return data;
  }

  function tell(id, text, kind) {
    const p = byId(id);
    p.textContent = text || "";
    p.className = "msg" + (kind ? " " + kind : "");
  }

  function size(n) {
    if (!(n >= 0)) return "?";
    if (n < 1024) return n + " B";
    if (n < 1 << 20) return (n / 1024).toFixed(1) + " KiB";
    return (n / (1 << 20)).toFixed(1) + " MiB";
  }

  // once runs fn unless a run of it is under way; the button is disabled
  // meanwhile, and afterwards unless dataset.keepOff says it must stay so.
  async function once(button, fn) {
    if (button.dataset.running) return;
    button.dataset.running = "1";
    button.disabled = true;
    try { return await fn(); } finally {
      delete button.dataset.running;
      button.disabled = button.dataset.keepOff === "1";
    }
  }

  // ---- the card ---------------------------------------------------------------

  function buildCard() {
    const num = (id, label, attrs) => make("label", {}, label, make("input", Object.assign({ type: "number", id, step: "1" }, attrs)));
    const card = make("section", { id: "maps-admin", className: "card wide", "aria-labelledby": "maps-admin-title" },
      make("h2", { id: "maps-admin-title" }, "Grids, exports and backups"),
      make("div", { className: "columns ma-columns" },
        make("div", { id: "grid-panel" },
          make("h3", {}, "Grid of a map"),
          make("p", { className: "muted small" },
            "A map made from a picture or a video waits for its grid before players may see it. Drop a picture or a video here to make one."),
          make("div", { className: "buttons" },
            make("label", {}, "Map ", make("select", { id: "grid-map" })),
            make("label", {}, "Or a picture ", make("input", { type: "file", id: "grid-file",
              accept: "image/png,image/jpeg,image/webp,image/gif,video/mp4,video/webm,.png,.jpg,.jpeg,.webp,.gif,.mp4,.webm" }))),
          make("p", { id: "grid-state", className: "state" }, "Loading…"),
          make("div", { className: "ma-stage", id: "grid-stage" },
            make("canvas", { id: "grid-canvas", width: 640, height: 400, "aria-label": "The map with its grid; drag to move the grid" })),
          make("div", { className: "ma-fields" },
            make("label", {}, "Grid ", make("select", { id: "grid-type" },
              make("option", { value: "square" }, "Square"),
              make("option", { value: "hexFlat" }, "Hex (flat top)"),
              make("option", { value: "hexPointy" }, "Hex (pointy top)"))),
            num("grid-size", "Cell size (px) ", { min: "4", max: "1000" }),
            make("label", { className: "ma-range" }, "Size ", make("input", { type: "range", id: "grid-size-range", min: "4", max: "300", step: "1" })),
            num("grid-offset-x", "Offset x (px) ", {}),
            num("grid-offset-y", "Offset y (px) ", {}),
            make("label", {}, "One cell is ", make("input", { type: "number", id: "grid-scale", min: "0", step: "any" })),
            make("label", {}, "Units ", make("input", { type: "text", id: "grid-units", maxLength: 16 }))),
          make("p", { id: "grid-cells", className: "small muted" }),
          make("div", { className: "buttons" },
            make("button", { type: "button", id: "grid-set", className: "primary" }, "Set grid"),
            make("button", { type: "button", id: "grid-show" }, "Show on player screen")),
          make("p", { id: "grid-msg", className: "msg", role: "status" })),
        make("div", {},
          make("h3", {}, "Export"),
          make("p", { className: "muted small" }, "An archive of a module or a campaign, in Companion's format: it imports back to the same content."),
          make("ul", { id: "export-list", className: "rows" }),
          make("p", { id: "export-msg", className: "msg", role: "status" }),
          make("h3", {}, "Backups"),
          make("p", { className: "muted small" }, "A copy of the whole data folder, taken while the game goes on. Restore one with companion restore."),
          make("div", { className: "buttons" }, make("button", { type: "button", id: "backup-now", className: "primary" }, "Back up now")),
          make("p", { id: "backup-msg", className: "msg", role: "status" }),
          make("ul", { id: "backup-list", className: "rows" }))));
    const after = byId("campaign");
    if (after && after.parentNode) after.after(card);
    else (document.querySelector("main") || document.body).append(card);
    if (!document.querySelector('link[href="/host/maps-admin.css"]')) {
      document.head.append(make("link", { rel: "stylesheet", href: "/host/maps-admin.css" }));
    }
  }

  // ---- grid ---------------------------------------------------------------------

  const grid = {
    maps: [],          // GET maps rows
    mapId: "",         // the map being set
    preview: null,     // the last preview drawn
    media: null,       // the loaded <img> or <video>, for preview.media.url
    mediaURL: "",
    fields: null,      // the change being previewed
    asking: false,     // a preview request is under way
    again: false,      // the fields changed meanwhile
  };

  async function loadMaps() {
    let maps;
    try { maps = await call("GET", "maps"); } catch (e) { return; }
    const sig = JSON.stringify(maps.map((m) => [m.id, m.name, !!m.gridPending]));
    if (sig === grid.sig) return;
    grid.sig = sig;
    grid.maps = maps;
    // Maps waiting for their grid first: those are the ones to set.
    const sorted = maps.slice().sort((a, b) => (b.gridPending ? 1 : 0) - (a.gridPending ? 1 : 0));
    const sel = byId("grid-map");
    const keep = grid.mapId;
    sel.replaceChildren(make("option", { value: "" }, sorted.length ? "Choose a map…" : "No map yet"),
      ...sorted.map((m) => make("option", { value: m.id, selected: m.id === keep },
        m.name + (m.gridPending ? " — waits for its grid" : ""))));
    if (!keep) {
      const waiting = sorted.find((m) => m.gridPending);
      if (waiting) openMap(waiting.id);
      else drawState();
    } else if (!maps.some((m) => m.id === keep)) {
      openMap("");
    }
  }

  function drawState() {
    const p = grid.preview;
    const st = byId("grid-state");
    if (!grid.mapId || !p) {
      const waiting = grid.maps.filter((m) => m.gridPending).length;
      st.textContent = waiting ? waiting + " map" + (waiting === 1 ? " waits" : "s wait") + " for a grid." : "No map waits for its grid.";
      st.className = "state";
    } else if (p.gridPending) {
      st.textContent = "“" + p.name + "” waits for its grid: players cannot see it until you set it.";
      st.className = "state warn";
    } else {
      st.textContent = "“" + p.name + "” is ready for the player screen.";
      st.className = "state good";
    }
    st.dataset.pending = p && p.gridPending ? "1" : "";
    const on = !!(grid.mapId && p);
    for (const id of ["grid-set", "grid-type", "grid-size", "grid-size-range", "grid-offset-x", "grid-offset-y", "grid-scale", "grid-units"]) {
      byId(id).disabled = !on;
    }
    const show = byId("grid-show");
    show.dataset.keepOff = on && !p.gridPending ? "" : "1";
    show.disabled = !on || p.gridPending || !!show.dataset.running;
  }

  async function openMap(id) {
    grid.mapId = id;
    grid.preview = null;
    byId("grid-map").value = id;
    tell("grid-msg", "");
    if (!id) { drawState(); paint(); return; }
    try {
      const p = await call("GET", "maps/" + encodeURIComponent(id) + "/grid");
      if (grid.mapId !== id) return;
      showPreview(p, true);
    } catch (e) {
      tell("grid-msg", e.message, "bad");
    }
    drawState();
  }

  // showPreview draws an answer; fill puts its settings in the fields (not
  // while the person is changing them).
  function showPreview(p, fill) {
    grid.preview = p;
    const g = p.grid;
    if (fill) {
      byId("grid-type").value = g.gridType === "hexFlat" || g.gridType === "hexPointy" ? g.gridType : "square";
      byId("grid-size").value = g.gridSize;
      byId("grid-size-range").value = g.gridSize;
      byId("grid-offset-x").value = g.gridOffsetX;
      byId("grid-offset-y").value = g.gridOffsetY;
      byId("grid-scale").value = g.gridScale;
      byId("grid-units").value = g.gridUnits;
    }
    byId("grid-cells").textContent = p.media.width && p.media.height
      ? p.media.width + "×" + p.media.height + " px: " + p.cells.across + " × " + p.cells.down + " cells of " +
        g.gridSize + " px" + (g.gridScale ? " (" + g.gridScale + " " + g.gridUnits + " each)" : "")
      : "This map has no size.";
    loadMedia(p.media);
    paint();
    drawState();
  }

  function loadMedia(media) {
    const url = media.kind === "none" ? "" : media.url || "";
    if (url === grid.mediaURL) return;
    grid.mediaURL = url;
    grid.media = null;
    if (!url) return;
    let node;
    if (media.kind === "video") {
      node = make("video", { muted: true, playsInline: true, preload: "auto" });
      // The first frame: drawn once decoded (loadeddata), and again after
      // a seek to the start, which a busy browser may need before a paused
      // video has a frame to give drawImage.
      const show = () => { if (grid.mediaURL === url && node.readyState >= 2) { grid.media = node; paint(); } };
      node.addEventListener("loadedmetadata", () => { node.currentTime = 0; });
      for (const ev of ["loadeddata", "canplay", "seeked"]) node.addEventListener(ev, show);
    } else {
      node = new Image();
      node.addEventListener("load", () => { if (grid.mediaURL === url) { grid.media = node; paint(); } });
    }
    node.addEventListener("error", () => { if (grid.mediaURL === url) tell("grid-msg", "The map's picture could not be loaded.", "bad"); });
    node.src = url;
  }

  // view is how map pixels land on the canvas: the whole map fits.
  function view() {
    const canvas = byId("grid-canvas");
    const p = grid.preview;
    const w = (p && p.media.width) || 1, h = (p && p.media.height) || 1;
    const stage = byId("grid-stage");
    const avail = Math.max(200, Math.min(960, (stage.clientWidth || 640)));
    const scale = Math.min(avail / w, 560 / h);
    return { canvas, scale, width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
  }

  // paint draws the picture and, over it, the grid of the last preview.
  // The lines are drawn twice, dark then light, so that they show on any
  // picture: this is for aligning by eye; players get the map's own grid
  // colour.
  function paint() {
    const v = view();
    const c = v.canvas;
    if (c.width !== v.width || c.height !== v.height) { c.width = v.width; c.height = v.height; }
    const ctx = c.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#d8d2c6";
    ctx.fillRect(0, 0, c.width, c.height);
    const p = grid.preview;
    if (!p) return;
    if (grid.media) {
      try { ctx.drawImage(grid.media, 0, 0, c.width, c.height); } catch (e) { /* not decodable yet */ }
    }
    ctx.setTransform(v.scale, 0, 0, v.scale, 0, 0);
    const path = new Path2D();
    const W = p.media.width, H = p.media.height;
    if (p.lines) {
      for (const x of p.lines.x) { path.moveTo(x, 0); path.lineTo(x, H); }
      for (const y of p.lines.y) { path.moveTo(0, y); path.lineTo(W, y); }
    } else if (p.hex) {
      const hx = p.hex;
      if (hx.columns * hx.rows > 60000) {
        tell("grid-msg", "The cells are too small to draw at this size.", "bad");
      } else {
        for (let i = 0; i < hx.columns; i++) {
          for (let j = 0; j < hx.rows; j++) {
            let cx = hx.origin.x + i * hx.step.x, cy = hx.origin.y + j * hx.step.y;
            if ((hx.shiftOdd === "columns" && i % 2) || (hx.shiftOdd === "rows" && j % 2)) { cx += hx.shift.x; cy += hx.shift.y; }
            path.moveTo(cx + hx.corners[0], cy + hx.corners[1]);
            for (let k = 2; k < 12; k += 2) path.lineTo(cx + hx.corners[k], cy + hx.corners[k + 1]);
            path.closePath();
          }
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
    c.dataset.offset = p.grid.gridOffsetX + "," + p.grid.gridOffsetY;
  }

  // change is the grid change the fields describe.
  function change() {
    const n = (id) => Math.round(Number(byId(id).value));
    const out = { gridSize: n("grid-size"), gridOffsetX: n("grid-offset-x") || 0, gridOffsetY: n("grid-offset-y") || 0,
      gridType: byId("grid-type").value };
    const scale = Number(byId("grid-scale").value);
    if (scale > 0) out.gridScale = scale;
    const units = byId("grid-units").value.trim();
    if (units) out.gridUnits = units;
    return out;
  }

  // ask previews the fields' grid: one request at a time, the latest
  // fields once it answers, so a drag never queues a backlog.
  async function ask() {
    if (!grid.mapId) return;
    if (grid.asking) { grid.again = true; return; }
    grid.asking = true;
    const id = grid.mapId;
    try {
      do {
        grid.again = false;
        try {
          const p = await call("POST", "maps/" + encodeURIComponent(id) + "/grid/preview", change());
          if (grid.mapId !== id) return;
          tell("grid-msg", "");
          showPreview(p, false);
        } catch (e) {
          if (grid.mapId === id) tell("grid-msg", e.message, "bad");
        }
      } while (grid.again && grid.mapId === id);
    } finally {
      grid.asking = false;
    }
  }

  function wireGrid() {
    byId("grid-map").addEventListener("change", (ev) => openMap(ev.target.value));
    const sizeBox = byId("grid-size"), range = byId("grid-size-range");
    sizeBox.addEventListener("input", () => { range.value = sizeBox.value; ask(); });
    range.addEventListener("input", () => { sizeBox.value = range.value; ask(); });
    for (const id of ["grid-type", "grid-offset-x", "grid-offset-y", "grid-scale", "grid-units"]) {
      byId(id).addEventListener("input", ask);
      byId(id).addEventListener("change", ask);
    }

    // Dragging the picture moves the grid with the pointer.
    const canvas = byId("grid-canvas");
    let drag = null;
    canvas.addEventListener("pointerdown", (ev) => {
      if (!grid.preview || !grid.mapId) return;
      drag = { x: ev.clientX, y: ev.clientY, ox: Number(byId("grid-offset-x").value) || 0, oy: Number(byId("grid-offset-y").value) || 0 };
      canvas.setPointerCapture(ev.pointerId);
    });
    canvas.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      const s = view().scale;
      byId("grid-offset-x").value = Math.round(drag.ox + (ev.clientX - drag.x) / s);
      byId("grid-offset-y").value = Math.round(drag.oy + (ev.clientY - drag.y) / s);
      ask();
    });
    const end = () => { drag = null; };
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);

    const set = byId("grid-set");
    set.addEventListener("click", () => once(set, async () => {
      const id = grid.mapId;
      if (!id) return;
      try {
        const p = await call("PUT", "maps/" + encodeURIComponent(id) + "/grid", change());
        if (grid.mapId === id) showPreview(p, true);
        tell("grid-msg", "Grid set: " + p.cells.across + " × " + p.cells.down + " cells.", "good");
        grid.sig = "";
        await loadMaps();
      } catch (e) { tell("grid-msg", e.message, "bad"); }
    }));
    const show = byId("grid-show");
    show.addEventListener("click", () => once(show, async () => {
      if (!grid.mapId) return;
      try {
        await call("POST", "screen", { mapId: grid.mapId });
        tell("grid-msg", "“" + (grid.preview ? grid.preview.name : "The map") + "” is on the player screen.", "good");
      } catch (e) { tell("grid-msg", e.message, "bad"); }
    }));

    // A picture chosen or dropped is imported as a map (into the primary
    // campaign) and opened here.
    const input = byId("grid-file");
    input.addEventListener("change", () => { if (input.files[0]) importPicture(input.files[0]).then(() => { input.value = ""; }); });
    const panel = byId("grid-panel");
    panel.addEventListener("dragover", (ev) => {
      if (ev.dataTransfer && [...ev.dataTransfer.types].includes("Files")) { ev.preventDefault(); panel.classList.add("ma-drop"); }
    });
    panel.addEventListener("dragleave", () => panel.classList.remove("ma-drop"));
    panel.addEventListener("drop", (ev) => {
      panel.classList.remove("ma-drop");
      const file = ev.dataTransfer && ev.dataTransfer.files[0];
      if (!file) return;
      ev.preventDefault();
      importPicture(file);
    });
    window.addEventListener("resize", () => paint());
    // The map list changes with imports made elsewhere on the page.
    window.addEventListener("companion:host-event", (ev) => {
      const name = ev.detail && ev.detail.name;
      if (name === "mapLoaded" || name === "screenUpdated" || name === "reload") loadMaps();
    });
  }

  async function importPicture(file) {
    if (!/\.(png|jpe?g|webp|gif|mp4|webm)$/i.test(file.name)) {
      tell("grid-msg", "“" + file.name + "” is not a picture or a video (png, jpeg, webp, gif, mp4, webm).", "bad");
      return;
    }
    const form = new FormData();
    form.append("file", file, file.name);
    tell("grid-msg", "Importing " + file.name + "…");
    try {
      const res = await call("POST", "import", form);
      if (res.kind !== "map") { tell("grid-msg", "Imported " + res.kind + " “" + res.name + "”.", "good"); return; }
      tell("grid-msg", "“" + res.name + "” is a new map: set its grid.", "good");
      grid.sig = "";
      await loadMaps();
      await openMap(res.id);
      tell("grid-msg", "“" + res.name + "” is a new map: set its grid.", "good");
    } catch (e) { tell("grid-msg", e.message, "bad"); }
  }

  // ---- export -------------------------------------------------------------------

  let exportSig = "";
  async function loadExports() {
    let modules = [], campaigns = [];
    try { modules = await call("GET", "modules"); } catch (e) { /* none, or not available */ }
    try { campaigns = await call("GET", "campaigns"); } catch (e) { /* idem */ }
    const rows = campaigns.map((c) => ({ kind: "campaign", id: c.id, name: c.name, note: c.primary ? "the campaign being played" : "campaign" }))
      .concat(modules.map((m) => ({ kind: "module", id: m.id, name: m.name, note: "module" })));
    const sig = JSON.stringify(rows);
    if (sig === exportSig) return;
    exportSig = sig;
    byId("export-list").replaceChildren(...(rows.length ? rows.map((r) => {
      const link = make("a", { className: "button", href: "/host/api/" + r.kind + "s/" + encodeURIComponent(r.id) + "/export", download: "" },
        "Download ." + r.kind);
      link.addEventListener("click", () => tellNeeds(r, link.href));
      return make("li", { "data-export": r.kind + ":" + r.id },
        make("div", {}, make("strong", {}, r.name), make("div", { className: "small muted" }, r.note)), link);
    }) : [make("li", { className: "muted" }, "Nothing to export yet.")]));
  }

  // tellNeeds says which modules an export points at without carrying
  // them (a campaign's monsters from a compendium), so that the game
  // master downloads those too. The link downloads the archive; this
  // reads the same answer's Companion-Needs header and stops at the
  // headers.
  async function tellNeeds(row, href) {
    tell("export-msg", "Downloading “" + row.name + "”…");
    const stop = new AbortController();
    try {
      const resp = await fetch(href, { signal: stop.signal });
      const header = resp.headers.get("Companion-Needs");
      stop.abort();
      if (!resp.ok) { tell("export-msg", "The export failed: " + resp.status + " " + resp.statusText, "bad"); return; }
      let needs = [];
      try { needs = header ? JSON.parse(header) : []; } catch (e) { needs = []; }
      if (!needs.length) { tell("export-msg", "“" + row.name + "” is whole in its archive.", "good"); return; }
      tell("export-msg", "“" + row.name + "” uses content of " + needs.map((n) => n.kind + " “" + n.name + "”").join(", ") +
        ": download " + (needs.length === 1 ? "it" : "them") + " too, and import " + (needs.length === 1 ? "it" : "them") + " first.", "warn");
    } catch (e) {
      if (e.name !== "AbortError") tell("export-msg", "The server is not answering.", "bad");
    }
  }

  // ---- backups ------------------------------------------------------------------

  let backupSig = "";
  async function loadBackups() {
    let list;
    try { list = await call("GET", "backups"); } catch (e) {
      if (e.status === 503) { byId("backup-now").disabled = true; tell("backup-msg", e.message); }
      return;
    }
    const sig = JSON.stringify(list);
    if (sig === backupSig) return;
    backupSig = sig;
    byId("backup-list").replaceChildren(...(list.length ? list.slice(0, 10).map((b) =>
      make("li", {},
        make("div", {}, make("strong", {}, new Date(b.created).toLocaleString()),
          make("div", { className: "small muted" }, [b.reason || "", b.files + " files", size(b.bytes)].filter(Boolean).join(" · ")),
          make("div", { className: "small muted ma-path" }, b.path))))
      : [make("li", { className: "muted" }, "No backup in the data folder yet.")]));
  }

  function wireBackups() {
    const b = byId("backup-now");
    b.addEventListener("click", () => once(b, async () => {
      tell("backup-msg", "Backing up… the game goes on meanwhile.");
      try {
        const res = await call("POST", "backups");
        tell("backup-msg", "Backed up " + res.files + " files (" + size(res.bytes) + ") in " +
          (res.durationMs / 1000).toFixed(1) + " s to " + res.path, "good");
        await loadBackups();
      } catch (e) { tell("backup-msg", e.message, "bad"); }
    }));
  }

  // ---- start --------------------------------------------------------------------

  function repeat(ms, fn) {
    let running = false;
    const run = async () => {
      if (running) return;
      running = true;
      try { await fn(); } catch (e) { /* shown by the next run */ } finally { running = false; }
    };
    run();
    setInterval(run, ms);
  }

  function start() {
    buildCard();
    wireGrid();
    wireBackups();
    drawState();
    paint();
    repeat(2000, loadMaps);
    repeat(5000, loadExports);
    repeat(10000, loadBackups);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
