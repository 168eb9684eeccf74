// The host console's page script: one bundle (dist/host/console.js) of the
// console's cards. The GM map is its own bundle (src/gm), loaded by the
// same page; the two meet through DOM events (events.ts) and
// window.companionGM (gm/handle.ts). Every piece of text from the server
// goes into the page as text (dom.ts), never as HTML.
import { onReady } from "./dom";
import { refreshDestinationSelects } from "./console-state";
import { every, wireLive } from "./live";
import { startWorkspace } from "./workspace";
import { startSystem } from "./system";
import { startOffers } from "./offers";
import { startCampaign } from "./campaign";
import { startCombat } from "./combat";
import { startMessages } from "./messages";
import { startJournal } from "./journal";
import { startSound } from "./sound";
import { startModules } from "./modules";
import { startLibrary } from "./library";
import { startMapsAdmin } from "./maps-admin";
import { startSeats } from "./seats";

onReady(() => {
  startWorkspace();
  wireLive();
  startSystem();
  startOffers();
  startCampaign();
  startCombat();
  startMessages();
  startJournal();
  startSound();
  startModules();
  refreshDestinationSelects();
  // No event exists for these: polled.
  every(1000, "system");
  every(1000, "offers");
  every(1000, "clients"); // viewports change without an event
  every(10000, "modules");
  every(2000, "webclient");
  // These follow the live socket; polled only while it is down.
  every(1000, "settings", true);
  every(2000, "campaign", true);
  every(2000, "messages", true);
  every(2000, "journal", true);
  every(1000, "sound", true); // a list moves on by itself; its position moves
  startLibrary();
  startMapsAdmin();
  startSeats();
});
