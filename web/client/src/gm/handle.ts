// What the GM map hands the rest of the host console (window.companionGM,
// set by gm/main.ts once the map is drawn): the console page is a separate
// bundle, so it reaches the map through this handle, typed here. The
// browser tests read it too.
import type { MapRenderer } from "../map/renderer";
import type { Store } from "../state/store";
import type { GMOverlay } from "./overlay";
import type { MapTools } from "./tools";
import type { TokenPanel } from "./token-panel";

export interface GMHandle {
  store: Store;
  renderer: MapRenderer | null;
  overlay: GMOverlay;
  tools: MapTools;
  panel: TokenPanel;
  selected(): string | null;
  socketState(): string | undefined;
}

/** The GM map's handle, once it is drawn. */
export function gmHandle(): GMHandle | undefined {
  return (window as unknown as { companionGM?: GMHandle }).companionGM;
}

/** Publishes the handle (gm/main.ts). */
export function setGMHandle(h: GMHandle): void {
  (window as unknown as { companionGM?: GMHandle }).companionGM = h;
}
