// The Journal card: what the game master showed players (pages, sections,
// pictures, text handouts), newest last, each with Take back (it leaves
// players' journals at once, and its page closes to them) or Show again
// (back on the player screen and in their journals). docs/api.md, "The
// handout journal".
import { errorText, hostAPI } from "../net/host-api";
import { busy } from "../ui/busy";
import { $, el, replaceChildren, say } from "./dom";
import { drawn, load, setLoader } from "./console-state";

interface Entry {
  id: string;
  kind: string;
  title: string;
  shown: string;
  revoked?: boolean;
}

async function loadJournal(): Promise<void> {
  const j = await hostAPI<{ entries: Entry[] }>("GET", "journal");
  if (!drawn.changed("journal", j)) return;
  const list = $("journal-list");
  if (!j.entries.length) {
    replaceChildren(list, [el("li", { className: "muted" }, "Nothing shown yet.")]);
    return;
  }
  replaceChildren(
    list,
    j.entries.map((e) => {
      const act = el("button", { type: "button", "data-journal": e.id }, e.revoked ? "Show again" : "Take back");
      act.onclick = () =>
        busy(act, async () => {
          try {
            await hostAPI("POST", `journal/${encodeURIComponent(e.id)}/${e.revoked ? "show" : "revoke"}`);
            say("journal-msg", e.revoked ? `${e.title}: shown again.` : `${e.title}: taken back from players' journals.`);
            await load("journal");
          } catch (err) {
            say("journal-msg", errorText(err), "bad");
          }
        });
      return el("li", { className: e.revoked ? "muted" : "" }, el("strong", {}, e.title), el("small", { className: "muted" }, ` ${e.kind}${e.revoked ? ", taken back" : ""} `), act);
    }),
  );
}

export function startJournal(): void {
  setLoader("journal", loadJournal);
}
