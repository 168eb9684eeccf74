// The journal panel (a tab on phones): everything the game master showed
// the table, in the order shown, what is new since the reader last looked
// marked, each opened again with a tap: a page in the reference panel, a
// picture or a text handout in the lightbox. It reads GET /api/me/journal
// and follows journalUpdated, so an entry the game master takes back
// leaves it at once (docs/api.md, "The handout journal").
import { apiHeaders } from "../net/api";
import type { EventRouter } from "../net/events";
import { t } from "../i18n";
import { h } from "./dom";
import { newEntries, newestShown, type JournalEntry } from "./journal-rules";
import type { ScreenOverlays } from "./screen";

const seenKey = "companion.journal.seen";

export class JournalPanel {
  readonly el = h("div", { className: "journal" });
  private entries: JournalEntry[] = [];
  private list = h("ol", { className: "journal-list" });
  private empty = h("p", { className: "muted" }, t.journalEmpty);

  constructor(private screen: ScreenOverlays, events: EventRouter) {
    this.el.append(this.empty, this.list);
    events.on("journalUpdated", (d) => this.set(d?.entries ?? []));
    // After a reconnect or a reload of the content, read it again.
    events.on("reload", () => void this.load());
  }

  async load(): Promise<void> {
    try {
      const res = await fetch("/api/me/journal", { headers: apiHeaders(), cache: "no-store" });
      if (!res.ok) return;
      const body = (await res.json()) as { entries?: JournalEntry[] };
      this.set(body.entries ?? []);
    } catch {
      /* offline: the socket's journalUpdated brings it */
    }
  }

  private set(entries: JournalEntry[]): void {
    this.entries = entries;
    this.draw();
  }

  private seen(): string {
    try {
      return localStorage.getItem(seenKey) ?? "";
    } catch {
      return "";
    }
  }

  /** Everything shown so far counts as seen (the reader opened an entry). */
  private markSeen(): void {
    try {
      localStorage.setItem(seenKey, newestShown(this.entries));
    } catch {
      /* not remembered */
    }
    this.draw();
  }

  private draw(): void {
    const fresh = newEntries(this.entries, this.seen());
    this.empty.hidden = this.entries.length > 0;
    this.list.replaceChildren(
      ...this.entries.map((e) => {
        const open = h("button", { type: "button", className: "link", "data-entry": e.id }, e.title);
        open.addEventListener("click", () => this.open(e));
        const kind = h("small", { className: "muted" }, ` ${t.journalKind(e.kind)}`);
        const li = h("li", { className: fresh.has(e.id) ? "new" : "" }, open, kind);
        if (fresh.has(e.id)) li.append(" ", h("span", { className: "badge" }, t.journalNew));
        return li;
      }),
    );
  }

  private open(e: JournalEntry): void {
    if (e.kind === "page" && e.url) this.screen.openPage(e.url, e.title);
    else this.screen.openHandout(e.kind === "image" ? (e.url ?? "") : "", e.text ?? "");
    this.markSeen();
  }
}
