// The one-line notice shown when the map lowered its quality on this
// device (map/quality.ts), with the way back: "Restore full quality"
// brings it back and stops lowering it here. × hides the notice and keeps
// the lowered quality.
import { t } from "../i18n";
import type { QualityGovernor } from "../map/quality";

export class QualityNotice {
  readonly el = document.createElement("p");
  private dismissed = false;

  constructor(parent: HTMLElement, restore: () => void) {
    this.el.className = "quality-notice";
    this.el.setAttribute("role", "status");
    this.el.hidden = true;
    const text = document.createElement("span");
    text.textContent = t.qualityLowered;
    const back = document.createElement("button");
    back.type = "button";
    back.className = "restore";
    back.textContent = t.qualityRestore;
    back.addEventListener("click", () => {
      restore();
      this.el.hidden = true;
    });
    const close = document.createElement("button");
    close.type = "button";
    close.className = "dismiss";
    close.textContent = "×";
    close.title = close.ariaLabel = t.qualityDismiss;
    close.addEventListener("click", () => {
      this.dismissed = true;
      this.el.hidden = true;
    });
    this.el.append(text, back, close);
    parent.appendChild(this.el);
  }

  /** Shows the notice while quality is lowered (unless dismissed), hides it at full quality. */
  update(q: QualityGovernor): void {
    const next = noticeState(q.lowered, this.dismissed);
    this.dismissed = next.dismissed;
    this.el.hidden = next.hidden;
  }
}

/**
 * Whether the notice shows: while quality is lowered, unless the player
 * dismissed it; back at full quality the dismissal is forgotten, so the
 * next lowering says so again.
 */
export function noticeState(lowered: boolean, dismissed: boolean): { hidden: boolean; dismissed: boolean } {
  const still = lowered && dismissed;
  return { hidden: !lowered || still, dismissed: still };
}
