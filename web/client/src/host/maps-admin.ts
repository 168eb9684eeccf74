// Host console: maps from pictures, exports and backups. It builds its own
// card, after the Campaign card:
//
//   - Grid: a map made from an image or a video waits for its grid
//     (gridPending) and cannot go on the player screen. The game master
//     picks it, sees the picture with the grid drawn over it, changes the
//     cell size and drags the grid (its offset) until the lines sit on the
//     picture's own, then sets it. Every change asks the server for the
//     preview (POST /host/api/maps/{id}/grid/preview, nothing stored), so
//     what is drawn is the geometry the player client will draw. A picture
//     dropped on the card is imported as such a map and opened here.
//     (grid-rules.ts holds the rules, grid-card.ts the drawing.)
//   - Export: a download link per module and campaign
//     (GET /host/api/{modules|campaigns}/{id}/export).
//   - Backups: "Back up now" (POST /host/api/backups) and the list of
//     backups in the data folder.
//
// All text from the server goes in through textContent, never as HTML.
import { errorStatus, errorText, hostAPI } from "../net/host-api";
import { busy, want } from "../ui/busy";
import { $, el, say } from "./dom";
import { bytes } from "./format";
import type { Module as ModuleRow } from "./types";
import { exportRows, needsText, type ExportRow } from "./export-rules";
import { startGridCard } from "./grid-card";

function buildCard(): void {
  const num = (id: string, label: string, attrs: { min?: string; max?: string }) =>
    el("label", {}, label, el("input", { type: "number", id, step: "1", ...attrs }));
  const card = el(
    "section",
    { id: "maps-admin", className: "card wide", "aria-labelledby": "maps-admin-title" },
    el("h2", { id: "maps-admin-title" }, "Grids, exports and backups"),
    el(
      "div",
      { className: "columns ma-columns" },
      el(
        "div",
        { id: "grid-panel" },
        el("h3", {}, "Grid of a map"),
        el("p", { className: "muted small" }, "A map made from a picture or a video waits for its grid before players may see it. Drop a picture or a video here to make one."),
        el(
          "div",
          { className: "buttons" },
          el("label", {}, "Map ", el("select", { id: "grid-map" })),
          el(
            "label",
            {},
            "Or a picture ",
            el("input", { type: "file", id: "grid-file", accept: "image/png,image/jpeg,image/webp,image/gif,video/mp4,video/webm,.png,.jpg,.jpeg,.webp,.gif,.mp4,.webm" }),
          ),
        ),
        el("p", { id: "grid-state", className: "state" }, "Loading…"),
        el(
          "div",
          { className: "ma-stage", id: "grid-stage" },
          el("canvas", { id: "grid-canvas", width: 640, height: 400, "aria-label": "The map with its grid; drag to move the grid" }),
        ),
        el(
          "div",
          { className: "ma-fields" },
          el(
            "label",
            {},
            "Grid ",
            el(
              "select",
              { id: "grid-type" },
              el("option", { value: "square" }, "Square"),
              el("option", { value: "hexFlat" }, "Hex (flat top)"),
              el("option", { value: "hexPointy" }, "Hex (pointy top)"),
            ),
          ),
          num("grid-size", "Cell size (px) ", { min: "4", max: "1000" }),
          el("label", { className: "ma-range" }, "Size ", el("input", { type: "range", id: "grid-size-range", min: "4", max: "300", step: "1" })),
          num("grid-offset-x", "Offset x (px) ", {}),
          num("grid-offset-y", "Offset y (px) ", {}),
          el("label", {}, "One cell is ", el("input", { type: "number", id: "grid-scale", min: "0", step: "any" })),
          el("label", {}, "Units ", el("input", { type: "text", id: "grid-units", maxLength: 16 })),
        ),
        el("p", { id: "grid-cells", className: "small muted" }),
        el(
          "div",
          { className: "buttons" },
          el("button", { type: "button", id: "grid-set", className: "primary" }, "Set grid"),
          el("button", { type: "button", id: "grid-show" }, "Show on player screen"),
          // The map for map makers and other table tools: walls, doors, lights and picture.
          el("a", { id: "grid-uvtt", className: "button", download: "", hidden: true, title: "Walls, doors, lights and the picture, for map makers and other table tools" }, "Download as Universal VTT"),
        ),
        el("p", { id: "grid-msg", className: "msg", role: "status" }),
      ),
      el(
        "div",
        {},
        el("h3", {}, "Export"),
        el("p", { className: "muted small" }, "An archive of a module or a campaign, in Companion's format: it imports back to the same content."),
        el("ul", { id: "export-list", className: "rows" }),
        el("p", { id: "export-msg", className: "msg", role: "status" }),
        el("h3", {}, "Backups"),
        el("p", { className: "muted small" }, "A copy of the whole data folder, taken while the game goes on. Restore one with companion restore."),
        el("div", { className: "buttons" }, el("button", { type: "button", id: "backup-now", className: "primary" }, "Back up now")),
        el("p", { id: "backup-msg", className: "msg", role: "status" }),
        el("ul", { id: "backup-list", className: "rows" }),
      ),
    ),
  );
  const after = document.getElementById("campaign");
  if (after?.parentNode) after.after(card);
  else (document.querySelector("main") ?? document.body).append(card);
  if (!document.querySelector('link[href="/host/maps-admin.css"]')) {
    document.head.append(el("link", { rel: "stylesheet", href: "/host/maps-admin.css" }));
  }
}

// ---- export -------------------------------------------------------------------

let exportSig = "";
async function loadExports(): Promise<void> {
  let modules: ModuleRow[] = [],
    campaigns: { id: string; name: string; primary?: boolean }[] = [];
  try {
    modules = await hostAPI("GET", "modules");
  } catch {
    /* none, or not available */
  }
  try {
    campaigns = await hostAPI("GET", "campaigns");
  } catch {
    /* idem */
  }
  const rows = exportRows(campaigns, modules);
  const sig = JSON.stringify(rows);
  if (sig === exportSig) return;
  exportSig = sig;
  $("export-list").replaceChildren(
    ...(rows.length
      ? rows.map((r) => {
          const link = el("a", { className: "button", href: `/host/api/${r.kind}s/${encodeURIComponent(r.id)}/export`, download: "" }, `Download .${r.kind}`);
          link.addEventListener("click", () => tellNeeds(r, link.href));
          return el(
            "li",
            { "data-export": `${r.kind}:${r.id}` },
            el("div", {}, el("strong", {}, r.name), el("div", { className: "small muted" }, r.note)),
            link,
          );
        })
      : [el("li", { className: "muted" }, "Nothing to export yet.")]),
  );
}

// tellNeeds says which modules an export points at without carrying them
// (a campaign's monsters from a compendium), so that the game master
// downloads those too. The link downloads the archive; this reads the same
// answer's Companion-Needs header and stops at the headers.
async function tellNeeds(row: ExportRow, href: string): Promise<void> {
  say("export-msg", `Downloading “${row.name}”…`);
  const stop = new AbortController();
  try {
    const resp = await fetch(href, { signal: stop.signal });
    const header = resp.headers.get("Companion-Needs");
    stop.abort();
    if (!resp.ok) {
      say("export-msg", `The export failed: ${resp.status} ${resp.statusText}`, "bad");
      return;
    }
    let needs: { kind: string; name: string }[] = [];
    try {
      needs = header ? JSON.parse(header) : [];
    } catch {
      needs = [];
    }
    say("export-msg", needsText(row.name, needs), needs.length ? "warn" : "good");
  } catch (e) {
    if (!(e instanceof Error && e.name === "AbortError")) say("export-msg", "The server is not answering.", "bad");
  }
}

// ---- backups ------------------------------------------------------------------

interface Backup {
  created: string;
  reason?: string;
  files: number;
  bytes: number;
  path: string;
  durationMs?: number;
}

let backupSig = "";
async function loadBackups(): Promise<void> {
  let list: Backup[];
  try {
    list = await hostAPI("GET", "backups");
  } catch (e) {
    if (errorStatus(e) === 503) {
      want($<HTMLButtonElement>("backup-now"), false);
      say("backup-msg", errorText(e));
    }
    return;
  }
  const sig = JSON.stringify(list);
  if (sig === backupSig) return;
  backupSig = sig;
  $("backup-list").replaceChildren(
    ...(list.length
      ? list.slice(0, 10).map((b) =>
          el(
            "li",
            {},
            el(
              "div",
              {},
              el("strong", {}, new Date(b.created).toLocaleString()),
              el("div", { className: "small muted" }, [b.reason || "", `${b.files} files`, bytes(b.bytes)].filter(Boolean).join(" · ")),
              el("div", { className: "small muted ma-path" }, b.path),
            ),
          ),
        )
      : [el("li", { className: "muted" }, "No backup in the data folder yet.")]),
  );
}

function wireBackups(): void {
  const b = $<HTMLButtonElement>("backup-now");
  b.addEventListener("click", () =>
    busy(b, async () => {
      say("backup-msg", "Backing up… the game goes on meanwhile.");
      try {
        const res = await hostAPI<Backup>("POST", "backups");
        say("backup-msg", `Backed up ${res.files} files (${bytes(res.bytes)}) in ${((res.durationMs ?? 0) / 1000).toFixed(1)} s to ${res.path}`, "good");
        await loadBackups();
      } catch (e) {
        say("backup-msg", errorText(e), "bad");
      }
    }),
  );
}

// ---- start --------------------------------------------------------------------

function repeat(ms: number, fn: () => Promise<void>): void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await fn();
    } catch {
      /* shown by the next run */
    } finally {
      running = false;
    }
  };
  run();
  window.setInterval(run, ms);
}

export function startMapsAdmin(): void {
  buildCard();
  const grid = startGridCard();
  wireBackups();
  repeat(2000, grid.loadMaps);
  repeat(5000, loadExports);
  repeat(10000, loadBackups);
}
