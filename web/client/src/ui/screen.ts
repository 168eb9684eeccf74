// What the host puts over the map: the pause cover, the handout or image
// lightbox (screenUpdated overlayImage / overlayHandoutText, Markdown,
// sanitised) and the reference panel for entity pages. A player may close
// the lightbox on their own page; it comes back when the host changes it.
import { t } from "../i18n";
import { renderMarkdown } from "../table/markdown";

export class ScreenOverlays {
  readonly pausedCover = document.createElement("div");
  readonly lightbox = document.createElement("div");
  readonly panel = document.createElement("aside");
  private closedKey = "";
  private shownKey = "";
  panelInfo: null | { kind: "entity" | "handout"; title: string; url?: string } = null;

  constructor(parent: HTMLElement) {
    this.pausedCover.className = "paused-cover";
    this.pausedCover.hidden = true;
    this.pausedCover.setAttribute("role", "status");
    const h = document.createElement("strong");
    h.textContent = t.pausedTitle;
    const p = document.createElement("span");
    p.textContent = t.pausedText;
    this.pausedCover.append(h, p);

    this.lightbox.className = "lightbox";
    this.lightbox.hidden = true;
    this.lightbox.setAttribute("role", "dialog");
    this.lightbox.setAttribute("aria-modal", "false");
    this.lightbox.setAttribute("aria-label", t.handout);
    this.lightbox.addEventListener("click", (e) => {
      if (e.target === this.lightbox) this.closeLightbox();
      const a = (e.target as HTMLElement).closest<HTMLAnchorElement>("a[data-entity]");
      if (a) {
        // An entity link in a handout opens the reference panel, not a page away from the table.
        e.preventDefault();
        this.openEntity(a.dataset.entity!, a.textContent ?? "");
      }
    });

    this.panel.className = "reference";
    this.panel.hidden = true;
    this.panel.setAttribute("aria-label", t.reference);
    parent.append(this.pausedCover, this.lightbox, this.panel);
    window.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      if (!this.panel.hidden) this.closePanel();
      else if (!this.lightbox.hidden) this.closeLightbox();
    });
  }

  setPaused(paused: boolean): void {
    this.pausedCover.hidden = !paused;
  }

  /** The host's overlay from the screen settings; a new one reopens a closed lightbox. */
  setScreen(screen: Record<string, unknown>): void {
    const image = typeof screen.overlayImage === "string" ? screen.overlayImage : "";
    const text = typeof screen.overlayHandoutText === "string" ? screen.overlayHandoutText : "";
    const style = typeof screen.overlayHandoutStyle === "string" ? screen.overlayHandoutStyle : "";
    const key = JSON.stringify([image, text, style]);
    if (!image && !text) {
      this.lightbox.hidden = true;
      this.shownKey = this.closedKey = "";
      return;
    }
    if (key === this.closedKey) return;
    if (key !== this.shownKey) {
      this.shownKey = key;
      this.fillLightbox(image, text, style);
    }
    this.lightbox.hidden = false;
    (this.lightbox.querySelector(".close") as HTMLElement | null)?.focus({ preventScroll: true });
  }

  /** Opens a picture or a text handout again, from the journal (ui/journal.ts). */
  openHandout(image: string, text: string): void {
    this.shownKey = JSON.stringify(["journal", image, text]);
    this.fillLightbox(image, text, "");
    this.lightbox.hidden = false;
    (this.lightbox.querySelector(".close") as HTMLElement | null)?.focus({ preventScroll: true });
  }

  private fillLightbox(image: string, text: string, style: string): void {
    const box = document.createElement("div");
    box.className = "sheet";
    if (/^[a-z][a-z0-9-]*$/i.test(style)) box.dataset.style = style;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = "×";
    close.title = t.close;
    close.setAttribute("aria-label", t.close);
    close.addEventListener("click", () => this.closeLightbox());
    box.append(close);
    if (image && /^(\/|https?:|data:image\/)/i.test(image)) {
      const img = document.createElement("img");
      img.src = image;
      img.alt = t.handout;
      box.append(img);
    }
    if (text) {
      const body = document.createElement("div");
      body.className = "handout-text";
      body.append(renderMarkdown(text));
      box.append(body);
    }
    this.lightbox.replaceChildren(box);
  }

  closeLightbox(): void {
    this.closedKey = this.shownKey;
    this.lightbox.hidden = true;
  }

  /**
   * Opens the server's rendered reference page for an entity path
   * (/monster/goblin) in a sandboxed frame over the map: no scripts, no
   * same-origin access, so the page cannot touch the table.
   */
  openEntity(path: string, title: string): void {
    const m = /^\/([a-z][a-z0-9_-]*)\/([A-Za-z0-9][A-Za-z0-9_.-]*)$/.exec(path);
    if (!m) return;
    // The app's link /monster/goblin is served as the single-segment
    // reference page /monster.goblin (contract: GET /{reference}).
    this.openFrame(`/${m[1]}.${encodeURIComponent(m[2])}`, title, path, m[2]);
  }

  /** Opens a page players were shown (/module/<m>/page/<p>#section) in the reference panel: the journal's. */
  openPage(url: string, title: string): void {
    if (!/^\/(module|campaign)\/[^/]+\/page\/[^/]+$/.test(url.split("#")[0])) return;
    this.openFrame(url, title, url, "");
  }

  private openFrame(page: string, title: string, path: string, slug: string): void {
    const head = document.createElement("header");
    const h = document.createElement("strong");
    // A link's text is often the path itself: name the entry instead, from
    // its slug at once, then from the page's own heading.
    const given = title.trim() && !title.trim().startsWith("/") ? title.trim() : "";
    title = given || nameFromSlug(slug);
    h.textContent = title;
    if (!given) {
      fetch(page).then((r) => (r.ok ? r.text() : "")).then((html) => {
        const heading = html ? new DOMParser().parseFromString(html, "text/html").querySelector("h1")?.textContent?.trim() : "";
        if (heading && h.isConnected) {
          h.textContent = heading;
          if (this.panelInfo?.url === page) this.panelInfo.title = heading;
        }
      }, () => {});
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = "×";
    close.title = t.close;
    close.setAttribute("aria-label", t.close);
    close.addEventListener("click", () => this.closePanel());
    head.append(h, close);
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "");
    frame.setAttribute("referrerpolicy", "no-referrer");
    frame.title = title || path;
    frame.src = page;
    this.panel.replaceChildren(head, frame);
    this.panel.hidden = false;
    this.panelInfo = { kind: "entity", title: title || path, url: page };
    close.focus({ preventScroll: true });
  }

  closePanel(): void {
    this.panel.hidden = true;
    this.panel.replaceChildren();
    this.panelInfo = null;
  }
}

/** A readable name from an entry's slug: saltmarsh-crab-knight is "Saltmarsh Crab Knight". */
export function nameFromSlug(slug: string): string {
  return decodeURIComponent(slug).split(/[-_.]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}
