// A button's state while its action runs, shared by the host console and
// its GM map. A second click while it runs does nothing. Afterwards the
// button takes the state the last redraw wanted for it (want), not simply
// "enabled": a "Start combat" whose answer started combat stays disabled.

/** Runs fn with the button disabled; undefined when it was running already. */
export async function busy<T>(button: HTMLButtonElement | null, fn: () => Promise<T>): Promise<T | undefined> {
  if (button?.dataset.busy) return undefined;
  if (button) {
    button.dataset.busy = "1";
    button.disabled = true;
  }
  try {
    return await fn();
  } finally {
    if (button) {
      delete button.dataset.busy;
      button.disabled = button.dataset.off === "1";
    }
  }
}

/** Sets whether a button may be used: now, or when its action ends. */
export function want(button: HTMLButtonElement | HTMLInputElement | HTMLSelectElement, enabled: boolean): void {
  button.dataset.off = enabled ? "" : "1";
  button.disabled = !enabled || !!button.dataset.busy;
}
