// Keeping the console current. The GM map opens the game master's live
// socket (GET /host/ws) and passes every event on as a DOM event; the
// cards an event changes are read again, once however many events arrive
// together. Polling remains where no event exists (offers, the system
// status, clients' viewports, the web client, modules), and as the
// fallback for the rest while the socket is down.
import { errorStatus } from "../net/host-api";
import { $ } from "./dom";
import { load, type Section } from "./console-state";
import { type HostEventName, onHostEvent, onSocketState } from "./events";
import { forgetSystemKinds } from "./workspace";

/**
 * Which cards an event changes, by the events the server sends (typed by
 * the wire description: a name it does not send does not compile).
 */
export const eventSections: Partial<Record<HostEventName, Section[]>> = {
  gameUpdated: ["campaign"],
  combatantUpdated: ["campaign"],
  screenUpdated: ["campaign"],
  mapLoaded: ["campaign"],
  tokenUpdated: ["campaign"],
  tokensUpdated: ["campaign"],
  systemPaused: ["settings"],
  interactionUpdated: ["settings"],
  clientUpdated: ["clients"],
  clientConnected: ["clients"],
  clientDisconnected: ["clients"],
  messageCreated: ["messages"],
  journalUpdated: ["journal"],
  soundUpdated: ["sound"],
  reload: ["campaign", "settings", "clients", "messages", "journal"],
};

/** The cards that follow the socket (and are polled only while it is down). */
const followed: Section[] = ["campaign", "settings", "clients", "messages", "journal", "sound"];

let liveSocket = false;
const due = new Set<Section>();
let flushTimer = 0;

function scheduleFlush(): void {
  if (!flushTimer && due.size) flushTimer = window.setTimeout(flushDue, 30);
}

function flushDue(): void {
  flushTimer = 0;
  const sections = [...due];
  due.clear();
  for (const k of sections) load(k).catch(() => {});
}

export function wireLive(): void {
  onHostEvent((name) => {
    if (name === "reload") forgetSystemKinds(); // its kinds and their health keys may have changed
    for (const section of eventSections[name] ?? []) due.add(section);
    scheduleFlush();
  });
  onSocketState((s) => {
    const open = s === "open";
    if (open && !liveSocket) for (const k of followed) due.add(k); // catch up on what happened meanwhile
    liveSocket = open;
    document.body.dataset.live = open ? "socket" : "polling";
    scheduleFlush();
  });
}

/**
 * every reads a card now and then every ms, never two at once; the
 * offline badge shows while the server does not answer. onlyPolling: only
 * while the live socket is down (the fallback).
 */
export function every(ms: number, section: Section, onlyPolling = false): void {
  let running = false;
  const run = async () => {
    if (running || (onlyPolling && liveSocket)) return;
    running = true;
    try {
      await load(section);
      $("offline-badge").hidden = true;
    } catch (e) {
      if (errorStatus(e) === 0) $("offline-badge").hidden = false;
    } finally {
      running = false;
    }
  };
  run();
  window.setInterval(run, ms);
}
