// The host console's page script: one bundle (dist/host/console.js) of the
// console's parts. The GM map is its own bundle (src/gm), loaded by the
// same page; the two meet through DOM events (events.ts) and
// window.companionGM (gm/handle.ts).
import { onReady } from "./dom";
import { startWorkspace } from "./workspace";
import "./console.js";
import { startLibrary } from "./library";
import { startMapsAdmin } from "./maps-admin";
import { startSeats } from "./seats";

onReady(() => {
  startWorkspace();
  startLibrary();
  startMapsAdmin();
  startSeats();
});
