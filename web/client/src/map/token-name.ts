// A token's name, written out above it while the pointer is over it and
// for a few seconds after a tap (phones have no hover): tokens are lettered
// discs a few millimetres wide at a phone's fit, and a letter names nobody.
// One DOM label for all tokens, placed over the map element.
import type { TokenView } from "./tokens";

/** How long a tapped token's name stays up. */
const tapShowMs = 4000;

export class TokenNames {
  readonly el = document.createElement("div");
  private shown: TokenView | null = null;
  private timer: number | undefined;

  /** toPage maps a map point to page pixels (MapRenderer.mapToScreen). */
  constructor(private parent: HTMLElement, private toPage: (x: number, y: number) => { x: number; y: number }) {
    this.el.className = "token-name";
    this.el.setAttribute("role", "status");
    this.el.hidden = true;
    parent.appendChild(this.el);
  }

  attach(view: TokenView): void {
    view.on("pointerover", (e) => {
      if (e.pointerType === "mouse") this.show(view, 0);
    });
    view.on("pointerout", (e) => {
      if (e.pointerType === "mouse" && this.shown === view && this.timer === undefined) this.hide();
    });
    view.on("pointertap", () => this.show(view, tapShowMs));
  }

  /** Shows the view's name; for ms milliseconds when ms > 0, else until the pointer leaves. */
  show(view: TokenView, ms: number): void {
    const t = view.token;
    const name = (t.name || t.label || "").trim();
    if (!name || view.destroyed) {
      this.hide();
      return;
    }
    this.shown = view;
    this.el.textContent = name;
    this.el.hidden = false;
    this.place();
    clearTimeout(this.timer);
    this.timer = ms > 0 ? window.setTimeout(() => this.hide(), ms) : undefined;
  }

  /** Keeps the label on its token as the view pans, zooms or the token moves. */
  place(): void {
    const v = this.shown;
    if (!v || this.el.hidden) return;
    if (v.destroyed || !v.visible) {
      this.hide();
      return;
    }
    const top = this.toPage(v.drawnX, v.drawnY - v.pixelHeight / 2);
    const box = this.parent.getBoundingClientRect();
    this.el.style.left = `${top.x - box.left}px`;
    this.el.style.top = `${top.y - box.top}px`;
  }

  hide(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.shown = null;
    this.el.hidden = true;
  }
}
