// The connection badge, always on screen (also in display mode, small and
// in a corner): connecting, live, reconnecting, closed; and "paused".
import type { ConnectionState } from "../net/socket";

const labels: Record<ConnectionState, string> = {
  connecting: "Connecting…",
  open: "Live",
  reconnecting: "Reconnecting…",
  closed: "Disconnected",
};

export class StatusBadge {
  readonly el = document.createElement("div");
  constructor(parent: HTMLElement) {
    this.el.className = "status";
    this.el.setAttribute("role", "status");
    this.el.setAttribute("aria-live", "polite");
    parent.appendChild(this.el);
  }

  show(state: ConnectionState, paused: boolean, detail: string): void {
    this.el.dataset.state = state;
    this.el.textContent = labels[state] + (paused && state === "open" ? " · paused" : "");
    this.el.title = detail;
  }
}
