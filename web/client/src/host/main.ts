// The host console's page script: one bundle (dist/host/console.js) of the
// console's parts, in the order the page needs them (the workspace first:
// the others call into it). The GM map is its own bundle (src/gm).
import "./workspace.js";
import "./console.js";
import "./library.js";
import "./maps-admin.js";
import { startSeats } from "./seats";
import { onReady } from "./dom";

onReady(startSeats);
