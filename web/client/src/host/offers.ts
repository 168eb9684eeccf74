// The Import offers and Import a file cards: offers wait for the game
// master's Accept (with where a loose collection or map is filed), show
// their download and install progress, and say why one failed, with Retry
// and Dismiss; a file imports at once. Rules in offer-rules.ts.
import { errorStatus, errorText, hostAPI } from "../net/host-api";
import { busy } from "../ui/busy";
import { $, chosenFile, el, replaceChildren, say } from "./dom";
import { bytes } from "./format";
import { destinationOptions, drawn, load, setLoader, state } from "./console-state";
import { compendiumText, installText, offerDetails, offerStatus, offerTitle } from "./offer-rules";
import type { ImportResult, InstallProgress, Offer } from "./types";

// The offer the page last accepted: its "downloading" message goes when it fails.
let lastAccepted = "";

async function loadOffers(): Promise<void> {
  let offers: Offer[] | null;
  try {
    offers = await hostAPI<Offer[]>("GET", "offers");
  } catch (e) {
    if (errorStatus(e) === 503) offers = null;
    else throw e;
  }
  // A message about an offer that has since failed would contradict its row.
  if (offers?.some((o) => o.status === "failed" && o.id === lastAccepted)) {
    lastAccepted = "";
    say("offers-msg", "");
  }
  if (!drawn.changed("offers", offers)) return;
  const list = $("offer-list");
  if (offers === null) {
    replaceChildren(list, [el("li", { className: "muted" }, "Import is not available on this server.")]);
    return;
  }
  if (offers.length === 0) {
    replaceChildren(list, [el("li", { className: "muted" }, "No offer.")]);
    return;
  }
  // Newest first: the one just offered is at the top.
  replaceChildren(list, offers.slice().reverse().map(offerRow));
}

/** A progress bar: a count of a total, or indeterminate without one. */
function bar(done: number | undefined, total: number | undefined): HTMLProgressElement {
  const b = el("progress", { max: total !== undefined && total > 0 ? total : undefined, value: done || 0 });
  if (!(total !== undefined && total > 0)) b.removeAttribute("value"); // indeterminate
  return b;
}

export function installProgress(p: InstallProgress): HTMLElement {
  return el("div", { className: "progress install-progress" }, bar(p.done, p.total), el("span", { className: "small" }, installText(p)));
}

function offerRow(o: Offer): HTMLElement {
  const pkg = o.package;
  const isClient = o.type === "client"; // a web client to install (see the Web client card)
  const title = offerTitle(o);
  const act = (b: HTMLButtonElement, fn: () => Promise<void>) =>
    busy(b, async () => {
      try {
        await fn();
        await load("offers");
      } catch (e) {
        say("offers-msg", errorText(e), "bad");
      }
    });
  const path = `offers/${encodeURIComponent(o.id)}`;
  const row = el(
    "li",
    { className: `offer status-${o.status}` },
    el(
      "div",
      { className: "row-head" },
      el("strong", {}, title),
      el("span", { className: `badge ${o.status === "failed" ? "bad" : o.status === "installed" ? "good" : ""}` }, offerStatus[o.status] || o.status),
    ),
    el("div", { className: "muted small" }, offerDetails(o)),
    pkg?.description ? el("div", { className: "small" }, pkg.description) : null,
  );

  if (o.status === "downloading" && o.install) {
    row.append(installProgress(o.install));
  } else if (o.status === "downloading") {
    const p = o.progress ?? {};
    row.append(el("div", { className: "progress" }, bar(p.done, p.total), el("span", { className: "small" }, bytes(p.done) + (p.total !== undefined && p.total > 0 ? ` of ${bytes(p.total)}` : ""))));
  }
  if (o.error) row.append(el("div", { className: "error" }, o.status === "failed" ? `Failed: ${o.error}` : o.error));
  if (o.status === "failed") {
    // One clear state: the reason above, and what can be done about it.
    const retry = el("button", { type: "button", className: "primary", "data-offer-act": "retry" }, "Retry");
    const dismiss = el("button", { type: "button", "data-offer-act": "dismiss" }, "Dismiss");
    retry.onclick = () =>
      act(retry, async () => {
        await hostAPI("POST", `${path}/retry`);
        say("offers-msg", "Trying again: accept it when it is ready.", "good");
      });
    dismiss.onclick = () =>
      act(dismiss, async () => {
        await hostAPI("DELETE", path);
        say("offers-msg", "");
      });
    row.append(el("div", { className: "buttons" }, retry, dismiss));
  }
  if (o.result) row.append(el("div", { className: "good small" }, `Installed ${isClient ? "web client" : o.result.kind} “${o.result.name}”${compendiumText(o.result)}`));

  if (o.status === "pending") {
    const select = el("select", { "aria-label": "Destination for a loose collection or map" }, ...destinationOptions(state.destinations.get(o.id) || ""));
    select.addEventListener("change", () => state.destinations.set(o.id, select.value));
    const accept = el("button", { type: "button", className: "primary", disabled: !!o.checking }, "Accept");
    const decline = el("button", { type: "button" }, "Decline");
    accept.onclick = () =>
      act(accept, async () => {
        await hostAPI("POST", `${path}/accept`, select.value ? { destination: select.value } : undefined);
        lastAccepted = o.id;
        say("offers-msg", `Accepted: downloading ${title}.`, "good");
      });
    decline.onclick = () =>
      act(decline, async () => {
        await hostAPI("POST", `${path}/decline`);
        say("offers-msg", `Declined ${title}.`);
      });
    row.append(el("div", { className: "buttons" }, isClient ? null : el("label", { className: "small" }, "File into ", select), accept, decline));
  }
  return row;
}

function wireImport(): void {
  const importForm = $<HTMLFormElement>("import-form");
  importForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = chosenFile($<HTMLInputElement>("import-file"));
    if (!file) {
      say("import-msg", "Choose a file first.", "bad");
      return;
    }
    const form = new FormData();
    const destination = $<HTMLSelectElement>("import-destination").value;
    if (destination) form.append("destination", destination); // before the file: the server reads in order
    form.append("file", file, file.name);
    say("import-msg", `Importing ${file.name}…`);
    // While the upload installs, the server's list of running imports
    // says how far it has come (a compendium of thousands of entries).
    const progress = $("import-progress");
    const poll = window.setInterval(async () => {
      try {
        const running = await hostAPI<{ name: string; install?: InstallProgress }[]>("GET", "imports");
        const mine = running.filter((a) => a.name === file.name && a.install);
        const last = mine[mine.length - 1]?.install;
        replaceChildren(progress, last ? [installProgress(last)] : []);
      } catch {
        /* the request below reports failures */
      }
    }, 400);
    await busy($<HTMLButtonElement>("import-button"), async () => {
      try {
        const res = await hostAPI<ImportResult>("POST", "import", form);
        say("import-msg", `Imported ${res.kind} “${res.name}”${compendiumText(res) || "."}`, "good");
        importForm.reset();
        load("modules").catch(() => {});
        load("campaign").catch(() => {});
      } catch (e) {
        say("import-msg", errorText(e), "bad");
      }
    });
    window.clearInterval(poll);
    replaceChildren(progress, []);
  });
}

export function startOffers(): void {
  setLoader("offers", loadOffers);
  wireImport();
}
