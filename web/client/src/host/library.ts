// Host console: the library, mounted into <section id="library">.
//
// The game master browses a module's or campaign's groups, pages, maps and
// encounters (GET /host/api/library, /host/api/library/{owner}), reads a
// page beside the GM map (GET /host/api/pages/{id}), puts a page's map on
// the player screen, adds an encounter to the map and to combat in one
// step, and shows a page, or one section of it, to players as a handout
// (or hides it again). The GM map and the console's other sections follow
// from the live socket's events (screenUpdated, tokenUpdated, gameUpdated),
// so the library only says what it did. Its decisions are in
// library-rules.ts.
//
// A page's HTML comes from the server sanitised by an allow-list
// (pagehtml); it is parsed inertly here and cleaned once more (no script,
// no event attribute, no javascript: URL) before it is shown. Everything
// else goes in as text.
import { hostAPI, errorText, errorStatus, readAnswer } from "../net/host-api";
import { el, replaceChildren, sayIn, type Tone } from "./dom";
import { onHostEvent } from "./events";
import type { HostCampaign as CampaignView, Token as MapToken } from "./types";
import {
  alreadyRun,
  creatureLine,
  kindLabel,
  libraryLabel,
  playersSeeNothing,
  shownText,
  sortLibraries,
  type Library,
  type LibraryItem,
  type PageView,
} from "./library-rules";

interface Encounter {
  id: string;
  name: string;
  descr?: string;
  mapId?: string;
  combatants: { name?: string; reference?: string; label?: string; count?: number; missing?: boolean }[];
}

interface EncounterRun {
  mapId: string;
  tokens: unknown[];
  combatants: unknown[];
  missing?: string[];
}

export function startLibrary(): void {
  const root = document.getElementById("library");
  if (!root) return;

  // The section's parts.
  const ownerPick = el("select", { id: "library-owner", "aria-label": "Module or campaign" });
  const tree = el("ul", { id: "library-tree", className: "library-tree" });
  const reader = el("article", { id: "library-page", className: "library-page", "aria-live": "polite" });
  const actions = el("div", { id: "library-actions", className: "buttons" });
  const msg = el("p", { id: "library-msg", className: "msg", role: "status" });
  root.append(
    el("div", { className: "buttons" }, el("label", null, "Module or campaign ", ownerPick)),
    el(
      "div",
      { className: "library-columns" },
      el("nav", { className: "library-nav", "aria-label": "Library contents" }, tree),
      el("div", { className: "library-reader" }, actions, reader),
    ),
    msg,
  );

  const say = (text: string, kind: Tone = "") => sayIn(msg, text, kind);

  // A random table from a spreadsheet: a CSV file whose first line names
  // the columns, added to the module or campaign chosen above.
  const tableName = el("input", { type: "text", id: "table-name", placeholder: "Table name", "aria-label": "Table name" });
  const tableFile = el("input", { type: "file", id: "table-file", accept: ".csv,text/csv", "aria-label": "CSV file" });
  const tableAdd = el("button", { type: "button", id: "table-add" }, "Add the table");
  tableAdd.onclick = () =>
    run(tableAdd, async () => {
      const file = tableFile.files?.[0];
      const name = tableName.value.trim() || file?.name.replace(/\.csv$/i, "") || "";
      if (!file || !name) throw new Error("Choose a CSV file (its first line names the columns) and a name.");
      const q = new URLSearchParams({ name, owner: ownerPick.value });
      const res = await fetch(`/host/api/tables?${q}`, { method: "POST", headers: { "Content-Type": "text/csv" }, body: await file.text() });
      readAnswer("POST", "tables", res.status, res.ok, await res.text());
      tableName.value = "";
      tableFile.value = "";
      librariesSig = undefined;
      await loadLibraries();
      return `Table "${name}" added: open it from the tree to roll.`;
    });
  root.append(el("div", { className: "buttons" }, el("span", null, "Random table from CSV: "), tableName, tableFile, tableAdd));

  // The reader and its buttons show one module's or campaign's page or
  // encounter: choosing another module clears them, rather than leave the
  // old page's buttons under the new tree.
  let readerOwner = "";
  function clearReader(): void {
    readerOwner = "";
    actions.replaceChildren();
    reader.replaceChildren();
  }

  // run does an action on a button, saying what it did or why it failed.
  async function run(button: HTMLButtonElement | null, fn: () => Promise<string>): Promise<void> {
    if (button) button.disabled = true;
    try {
      const text = await fn();
      if (text) say(text, "good");
    } catch (e) {
      say(errorText(e), "bad");
    } finally {
      if (button) button.disabled = false;
    }
  }

  let libraries: Library[] = [];
  let librariesSig: string | undefined;
  const owner = () => libraries.find((l) => l.id === ownerPick.value);

  async function loadLibraries(): Promise<void> {
    try {
      const list = await hostAPI<Library[] | null>("GET", "library");
      const sig = JSON.stringify(list);
      if (sig === librariesSig) return;
      librariesSig = sig;
      libraries = list ?? [];
      const keep = ownerPick.value;
      ownerPick.replaceChildren(...sortLibraries(libraries).map((l) => el("option", { value: l.id }, libraryLabel(l))));
      if (keep && libraries.some((l) => l.id === keep)) ownerPick.value = keep;
      await loadTree();
    } catch (e) {
      say(errorText(e), "bad");
    }
  }

  async function loadTree(): Promise<void> {
    const o = owner();
    if (readerOwner && readerOwner !== o?.id) clearReader();
    if (!o) {
      tree.replaceChildren(el("li", { className: "muted" }, "Nothing is installed."));
      return;
    }
    const lib = await hostAPI<{ items: LibraryItem[] }>("GET", `library/${encodeURIComponent(o.id)}`);
    tree.replaceChildren(...lib.items.map(itemNode));
    if (!lib.items.length) tree.append(el("li", { className: "muted" }, "This holds no pages, maps or encounters."));
  }

  function itemNode(it: LibraryItem): HTMLElement {
    const label = it.name;
    const kind = kindLabel(it.type) ? el("small", { className: "muted" }, ` ${kindLabel(it.type)}`) : null;
    let head: HTMLElement;
    switch (it.type) {
      case "page":
        head = el(
          "span",
          null,
          el(
            "button",
            { type: "button", className: "link", "data-page": it.id, onclick: () => openPage(it.id) },
            label,
            it.shown ? el("span", { className: "badge good" }, it.shown === "page" ? "shown" : "sections shown") : null,
          ),
          kind,
        );
        break;
      case "map": {
        const b = el("button", { type: "button", "data-map": it.id }, it.onScreen ? "On the player screen" : "Put on the player screen");
        b.onclick = () => run(b, () => showMap(it.id, it.name));
        head = el("span", null, label, kind, " ", b);
        break;
      }
      case "encounter":
        head = el(
          "span",
          null,
          el(
            "button",
            { type: "button", className: "link", "data-encounter": it.id, onclick: () => openEncounter(it.id) },
            label + (it.creatures ? ` (${it.creatures})` : ""),
          ),
          kind,
        );
        break;
      case "table":
        // The table's page, with its Roll buttons, in a tab of its own.
        head = el("span", null, el("a", { href: it.url ?? `/table/${encodeURIComponent(it.slug ?? it.id)}`, target: "_blank", rel: "noopener" }, label), kind);
        break;
      default:
        head = el("span", null, it.type === "group" ? el("strong", null, label) : label, kind);
    }
    const li = el("li", { className: `lib-${it.type}` });
    if (it.children?.length) {
      li.append(el("details", { open: it.type === "group" }, el("summary", null, head), el("ul", null, ...it.children.map(itemNode))));
    } else {
      li.append(head);
    }
    return li;
  }

  async function showMap(mapId: string, name: string): Promise<string> {
    await hostAPI("POST", "screen", { mapId });
    return `“${name}” is on the player screen.${await darkNote(mapId)}`;
  }

  // darkNote warns when players will see nothing of a map: their screens
  // stay black until a party token stands on it. A legacy module's map
  // often comes so; without a word the game master thinks the screen is
  // broken.
  async function darkNote(mapId: string): Promise<string> {
    let m: { lineOfSight?: boolean; tokens?: MapToken[] } | null;
    try {
      m = await hostAPI("GET", `maps/${encodeURIComponent(mapId)}`);
    } catch {
      return "";
    }
    return playersSeeNothing(m) ? " Players see nothing of it yet: its line of sight is on and no party token stands on it." : "";
  }

  // ---- reading a page ---------------------------------------------------

  // clean parses the server's (already sanitised) HTML inertly and drops
  // anything active, should any slip through.
  function clean(html: string): Node[] {
    const doc = new DOMParser().parseFromString(`<body>${html}`, "text/html");
    for (const n of doc.querySelectorAll("script, style, iframe, object, embed, form, link, meta, base")) n.remove();
    for (const n of doc.body.querySelectorAll("*")) {
      for (const a of [...n.attributes]) {
        const v = a.value.trim().toLowerCase();
        if (a.name.startsWith("on") || ((a.name === "href" || a.name === "src") && v.startsWith("javascript:"))) n.removeAttribute(a.name);
      }
    }
    return [...doc.body.childNodes].map((n) => document.importNode(n, true));
  }

  async function openPage(id: string): Promise<void> {
    const from = ownerPick.value;
    let v: PageView;
    try {
      v = await hostAPI<PageView>("GET", `pages/${encodeURIComponent(id)}`);
    } catch (e) {
      say(errorText(e), "bad");
      return;
    }
    if (ownerPick.value !== from) return; // another module was chosen meanwhile
    readerOwner = from;
    drawPage(v);
    say("");
  }

  function drawPage(v: PageView): void {
    const body = el("div", { className: "page-body" }, ...clean(v.html));
    // Links to the library act here: a page opens, a map goes on the
    // player screen, an encounter opens. Others open in a new tab.
    body.addEventListener("click", (ev) => {
      const a = ev.target instanceof Element ? ev.target.closest("a") : null;
      if (!a) return;
      const kind = a.getAttribute("data-link"),
        id = a.getAttribute("data-id");
      if (kind === "page" && id) {
        ev.preventDefault();
        openPage(id);
        return;
      }
      if (kind === "map" && id) {
        ev.preventDefault();
        run(null, () => showMap(id, a.textContent ?? ""));
        return;
      }
      if (kind === "encounter" && id) {
        ev.preventDefault();
        openEncounter(id);
        return;
      }
      a.target = "_blank";
      a.rel = "noopener";
    });
    reader.replaceChildren(
      el("h3", { className: "page-title" }, v.page.name),
      el("p", { id: "library-shown", className: "muted" }, shownText(v), " ", el("a", { href: v.url, target: "_blank", rel: "noopener" }, "Players' link")),
      body,
    );

    const section = el(
      "select",
      { id: "library-section", "aria-label": "Section to show" },
      el("option", { value: "" }, "The whole page"),
      ...v.sections.map((s) => el("option", { value: s.id }, `${"—".repeat(Math.max(0, s.level - 1))} ${s.title}`)),
    );
    const showBtn = el("button", { type: "button", id: "library-show", className: "primary" }, "Show to players");
    showBtn.onclick = () =>
      run(showBtn, async () => {
        const sec = section.value;
        await hostAPI("POST", `pages/${encodeURIComponent(v.page.id)}/show`, sec ? { section: sec } : {});
        await openPage(v.page.id);
        await loadTree();
        return sec ? "The players see the section as a handout." : "The players see the page as a handout.";
      });
    const hideBtn = el("button", { type: "button", id: "library-hide", disabled: !v.shown }, "Hide from players");
    hideBtn.onclick = () =>
      run(hideBtn, async () => {
        await hostAPI("DELETE", `pages/${encodeURIComponent(v.page.id)}/show`);
        await openPage(v.page.id);
        await loadTree();
        return "Players can no longer read the page.";
      });
    const parts: HTMLElement[] = [el("label", null, "Show ", section), showBtn, hideBtn];
    for (const m of v.maps ?? []) {
      const b = el("button", { type: "button", "data-page-map": m.id }, `Open “${m.name}” on the player screen`);
      b.onclick = () =>
        run(b, async () => {
          await hostAPI("POST", `pages/${encodeURIComponent(v.page.id)}/map`, { mapId: m.id });
          await loadTree();
          return `“${m.name}” is on the player screen.${await darkNote(m.id)}`;
        });
      parts.push(b);
    }
    for (const e of v.encounters ?? []) {
      const b = el("button", { type: "button", "data-page-encounter": e.id }, `Encounter: ${e.name}`);
      b.onclick = () => openEncounter(e.id);
      parts.push(b);
    }
    actions.replaceChildren(...parts);
  }

  // ---- encounters -------------------------------------------------------

  async function openEncounter(id: string): Promise<void> {
    const from = ownerPick.value;
    let enc: Encounter;
    try {
      enc = await hostAPI<Encounter>("GET", `encounters/${encodeURIComponent(id)}`);
    } catch (e) {
      say(errorText(e), "bad");
      return;
    }
    if (ownerPick.value !== from) return; // another module was chosen meanwhile
    readerOwner = from;
    const list = el(
      "ul",
      { className: "rows" },
      ...enc.combatants.map((c) => el("li", null, creatureLine(c), c.missing ? el("span", { className: "badge warn" }, "not installed: placed by name") : null)),
    );
    const hidden = el("input", { type: "checkbox", id: "library-run-hidden" });
    const runBtn = el("button", { type: "button", id: "library-run", className: "primary" }, "Add to the map and to combat");
    runBtn.onclick = () =>
      run(runBtn, async () => {
        // An encounter with a map of its own is played there: the map goes
        // on the player screen first, so that the game master sees it too.
        if (enc.mapId) {
          const campaign = await hostAPI<CampaignView>("GET", "campaign");
          if (!campaign.screen || campaign.screen.mapId !== enc.mapId) await hostAPI("POST", "screen", { mapId: enc.mapId });
        }
        const path = `encounters/${encodeURIComponent(enc.id)}/run`;
        let out: EncounterRun;
        try {
          out = await hostAPI<EncounterRun>("POST", path, { hidden: hidden.checked });
        } catch (e) {
          // Its creatures already stand on the map: most often a second
          // click, sometimes a second band on purpose.
          if (!alreadyRun(errorStatus(e), errorText(e))) throw e;
          if (!confirm(`${enc.name}: its creatures already stand on the map. Add them once more?`)) return "Not added again: its creatures already stand on the map.";
          out = await hostAPI<EncounterRun>("POST", path, { hidden: hidden.checked, again: true });
        }
        const missing = out.missing?.length ? ` Not installed, placed by name: ${out.missing.join(", ")}.` : "";
        return `${out.tokens.length} tokens placed and ${out.combatants.length} combatants added.${missing}${await darkNote(out.mapId)}`;
      });
    actions.replaceChildren(runBtn, el("label", { className: "inline" }, hidden, " Place them hidden"));
    replaceChildren(reader, [
      el("h3", { className: "page-title" }, enc.name),
      enc.descr ? el("p", null, enc.descr) : null,
      el("p", { className: "muted" }, enc.mapId ? "Played on its own map (it goes on the player screen)." : "Played on the map on the player screen."),
      list,
    ]);
  }

  ownerPick.addEventListener("change", () => {
    loadTree().catch((e) => say(errorText(e), "bad"));
  });
  loadLibraries();
  // New content arrives from imports and offers: look again now and then,
  // and at once when the console says something changed.
  window.setInterval(() => {
    if (!document.hidden) loadLibraries();
  }, 5000);
  onHostEvent((name) => {
    if (name === "screenUpdated" || name === "mapLoaded") {
      librariesSig = undefined;
      loadLibraries();
    }
  });
}
