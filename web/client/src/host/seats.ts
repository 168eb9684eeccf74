// Host console: seats, roles and the join key (docs/host-console.md,
// "Seats and the join key"). It draws into the #seats section of the page
// and keeps itself current from the host socket's events (the
// "companion:host-event" DOM events the GM map passes on), with a slow poll
// as the fallback. What it decides is in seat-rules.ts.
import { hostAPI, errorText } from "../net/host-api";
import type { HostClient as ClientRow, HostJoin as JoinInfo, Token as MapToken, HostSeatRow as Seat, HostCampaign as CampaignView } from "./types";
import { $, el, sayIn, type Tone } from "./dom";
import { onHostEvent } from "./events";
import { clientName, controlsSummary, givable, isDisplay, otherRole, otherTokens, roleOf, seatHolder, withControl } from "./seat-rules";

interface SeatToken {
  id: string;
  name: string;
  entityId: string;
}

const say = (text: string, kind: Tone = "") => sayIn($("seats-msg"), text, kind);

// run does fn with the control disabled, saying what went wrong.
async function run(control: HTMLButtonElement | HTMLInputElement | HTMLSelectElement | null, fn: () => Promise<void>): Promise<void> {
  if (control) control.disabled = true;
  try {
    await fn();
  } catch (e) {
    say(errorText(e), "bad");
  } finally {
    if (control) control.disabled = false;
  }
  refresh();
}

let last = "";
let clients: ClientRow[] = [];
// The tokens of each map a seat looks at (the player screen's, or a map of
// the seat's own in a split party), by map id: read when the game master
// first opens a seat's "Other tokens…" (the campaign is not polled: the
// console's own card follows it from the live socket), and again when a
// map or its tokens change.
const tokens = new Map<string, SeatToken[]>();
let openSeat = "";
// The maps a seat may be put on (a split party): the campaign's and the
// one on the player screen, read at the start, when the screen's map
// changes and when the game master opens a seat's map choice (the poll
// below does not read them: the campaign is the console's own card's).
let maps: { id: string; name: string }[] = [];
let screenMap = "";

async function load(): Promise<void> {
  const [join, seats, list] = await Promise.all([
    hostAPI<JoinInfo>("GET", "join"),
    hostAPI<Seat[]>("GET", "seats"),
    hostAPI<ClientRow[]>("GET", "clients"),
  ]);
  const key = JSON.stringify([join, seats, list.map((c) => [c.channel, c.name, c.role, c.seat, c.runMode]), [...tokens], maps, screenMap]);
  if (key === last) return;
  last = key;
  clients = list;
  drawJoin(join);
  drawSeats(seats);
  drawClients(list, seats);
}

/** Reads the maps a seat may go on; the rows are drawn again when they changed. */
async function loadMaps(): Promise<void> {
  const campaign = await hostAPI<CampaignView>("GET", "campaign");
  const list = (campaign.maps ?? []).filter((m) => !m.gridPending).map((m) => ({ id: m.id, name: m.name || m.id }));
  const shown = campaign.screenMap;
  if (shown && !list.some((m) => m.id === shown.id)) list.push({ id: shown.id, name: shown.name || shown.id });
  const screen = campaign.screen?.mapId ?? "";
  if (JSON.stringify([list, screen]) === JSON.stringify([maps, screenMap])) return;
  maps = list;
  screenMap = screen;
  await load();
}

/** The map a seat's player looks at: its own, else the player screen's. */
function seatMapId(s: Seat): string {
  return s.mapId || screenMap;
}

/** Reads the tokens of the maps given (every map read before when none). */
async function loadTokens(mapIds: string[] = [...tokens.keys()]): Promise<void> {
  const lists = await Promise.all(mapIds.map((id) => mapTokens(id)));
  for (const [i, id] of mapIds.entries()) tokens.set(id, lists[i]);
  last = "";
  await load();
}

async function mapTokens(mapId: string): Promise<SeatToken[]> {
  if (!mapId) return [];
  try {
    const map = await hostAPI<{ tokens?: MapToken[] }>("GET", `maps/${encodeURIComponent(mapId)}`);
    return (map.tokens ?? []).map((t) => ({ id: t.id, name: t.name || t.id, entityId: t.entityId || "" }));
  } catch {
    return [];
  }
}

function drawJoin(join: JoinInfo): void {
  const box = $("join-key");
  const toggle = el("input", { type: "checkbox", id: "join-key-on", checked: !!join.enabled });
  toggle.onchange = () =>
    run(toggle, async () => {
      await hostAPI("PATCH", "join", { enabled: toggle.checked });
      say(
        toggle.checked
          ? "The join key is on: only those with the link below get in. Everyone else was disconnected."
          : "The join key is off: anyone on the network may join.",
        "good",
      );
    });
  const parts: Node[] = [el("label", { className: "switch" }, toggle, " Players need the link with the join key")];
  if (join.enabled) {
    const fresh = el("button", { type: "button", id: "join-new-key" }, "Draw a new key");
    fresh.onclick = () => {
      if (!confirm("Draw a new key? Everyone who joined with the old link is disconnected and needs the new one.")) return;
      run(fresh, async () => {
        await hostAPI("POST", "join/new-key");
        say("New keys drawn: give the players the new link.", "good");
      });
    };
    parts.push(
      el("div", { className: "buttons" }, fresh),
      linkBox("Players' link", join.playerLink, join.playerLinkQR, "join-player-link"),
      linkBox("Spectators' link (watch only)", join.spectatorLink, join.spectatorLinkQR, "join-spectator-link"),
    );
  } else {
    parts.push(linkBox("Link for players", join.clientLink, join.clientLinkQR, "join-client-link"));
  }
  box.replaceChildren(...parts);
}

function linkBox(title: string, link = "", qr: string | undefined, id: string): HTMLElement {
  return el(
    "div",
    { className: "join-link" },
    el("h3", {}, title),
    qr ? el("img", { src: qr, alt: `QR code of ${title}`, width: 148, height: 148 }) : null,
    el("a", { href: link, id, target: "_blank", rel: "noopener" }, link),
  );
}

function drawSeats(seats: Seat[]): void {
  $("seats-empty").hidden = seats.length > 0;
  $("seats-table").hidden = seats.length === 0;
  const players = givable(clients);
  $("seat-rows").replaceChildren(...seats.map((s) => seatRow(s, players)));
}

function seatRow(s: Seat, players: ClientRow[]): HTMLElement {
  const give = el(
    "select",
    { "aria-label": `Give ${s.name} to` },
    el("option", { value: "" }, "Give to…"),
    ...players.map((c) => el("option", { value: String(c.channel) }, clientName(c) + (c.seat ? " (has a seat)" : ""))),
  );
  give.onchange = () => {
    const channel = Number(give.value);
    if (!channel) return;
    run(give, async () => {
      await hostAPI("POST", `seats/${encodeURIComponent(s.id)}/assign`, { channel });
      say(`${s.name} is played by ${players.find((c) => c.channel === channel)?.name || `#${channel}`}.`, "good");
    });
  };
  const free = el("button", { type: "button", className: "seat-free", disabled: !s.taken }, "Free");
  free.onclick = () =>
    run(free, async () => {
      await hostAPI("POST", `seats/${encodeURIComponent(s.id)}/free`);
      say(`${s.name} is free.`, "good");
    });
  const mapId = seatMapId(s);
  const onMap = tokens.get(mapId);
  const others = otherTokens(onMap ?? [], s);
  const controls = el(
    "details",
    { open: openSeat === s.id },
    el("summary", {}, controlsSummary(s)),
    onMap === undefined
      ? el("p", { className: "small muted" }, "Reading the map…")
      : others.length
        ? el("div", { className: "seat-controls" }, ...others.map((t) => controlBox(s, t)))
        : el("p", { className: "small muted" }, s.mapId ? "No other token on this seat's map." : "No other token on the player screen's map."),
  );
  // An open list whose seat went to another map reads that map.
  if (openSeat === s.id && onMap === undefined) loadTokens([mapId]).catch(() => {});
  controls.addEventListener("toggle", () => {
    openSeat = controls.open ? s.id : openSeat === s.id ? "" : openSeat;
    if (controls.open && !tokens.has(mapId)) loadTokens([mapId]).catch((e) => say(errorText(e), "bad"));
  });
  return el(
    "tr",
    { "data-seat": s.id },
    el("td", {}, s.name),
    el("td", { className: s.taken ? "seat-taken" : "muted" }, seatHolder(s)),
    el("td", {}, el("div", { className: "buttons" }, give, free), controls),
    el("td", {}, mapChoice(s)),
  );
}

// mapChoice shows where a seat is and moves it: the player screen's map
// (the seat follows the screen), or a map of its own (a split party).
function mapChoice(s: Seat): HTMLSelectElement {
  const own = s.mapId ?? "";
  const list = own && !maps.some((m) => m.id === own) ? [...maps, { id: own, name: own }] : maps;
  const screenName = maps.find((m) => m.id === screenMap)?.name;
  const choice = el(
    "select",
    { className: "seat-map", "aria-label": `Map of ${s.name}` },
    el("option", { value: "", selected: !own }, screenName ? `The screen map (${screenName})` : "The screen map"),
    ...list.filter((m) => m.id !== screenMap).map((m) => el("option", { value: m.id, selected: m.id === own }, m.name)),
  );
  choice.addEventListener("focus", () => loadMaps().catch(() => {}), { once: true });
  choice.onchange = () =>
    run(choice, async () => {
      await hostAPI("PUT", `seats/${encodeURIComponent(s.id)}/map`, { mapId: choice.value || null });
      say(choice.value ? `${s.name} is now on ${list.find((m) => m.id === choice.value)?.name}: their player sees that map alone.` : `${s.name} follows the player screen again.`, "good");
    });
  return choice;
}

function controlBox(s: Seat, t: SeatToken): HTMLElement {
  const box = el("input", { type: "checkbox", checked: (s.controls ?? []).includes(t.id) });
  box.onchange = () =>
    run(box, async () => {
      await hostAPI("PUT", `seats/${encodeURIComponent(s.id)}/controls`, { tokens: withControl(s.controls ?? undefined, t.id, box.checked) });
      say(`${s.name + (box.checked ? " now moves " : " no longer moves ") + t.name}.`, "good");
    });
  return el("label", {}, box, ` ${t.name}`);
}

function drawClients(list: ClientRow[], seats: Seat[]): void {
  $("roles-empty").hidden = list.length > 0;
  $("roles-table").hidden = list.length === 0;
  const seatName = (id: string) => seats.find((s) => s.id === id)?.name || "";
  $("role-rows").replaceChildren(
    ...list.map((c) => {
      const role = roleOf(c);
      const kick = el("button", { type: "button", className: "danger client-kick" }, "Kick");
      kick.onclick = () => {
        if (!confirm(`Send ${clientName(c)} away? Their seat is freed; with the join key on, they need a new link (everyone else keeps playing).`)) return;
        run(kick, async () => {
          await hostAPI("POST", `clients/${c.channel}/kick`);
          say(`${clientName(c)} was sent away.`, "good");
        });
      };
      let roleButton: HTMLButtonElement | null = null;
      if (!isDisplay(c)) {
        const b = el("button", { type: "button", className: "client-role" }, role === "spectator" ? "Make a player" : "Make a spectator");
        b.onclick = () => run(b, () => hostAPI("PATCH", `clients/${c.channel}`, { role: otherRole(role) }).then(() => undefined));
        roleButton = b;
      }
      return el(
        "tr",
        { "data-channel": String(c.channel) },
        el("td", {}, c.name || `(unnamed) #${c.channel}`),
        el("td", { className: "client-role-name" }, role),
        el("td", {}, c.seat ? seatName(c.seat) : "—"),
        el("td", {}, el("div", { className: "buttons" }, roleButton, kick)),
      );
    }),
  );
}

let timer = 0;
function refresh(): void {
  if (timer) return;
  timer = window.setTimeout(() => {
    timer = 0;
    load().catch(() => {});
  }, 30);
}

const events = new Set(["seatsUpdated", "accessChanged", "clientUpdated", "clientConnected", "clientDisconnected", "reload"]);
// Changes of the screen's map or its token list (not single tokens: a
// drag sends many) read the tokens again, once they were read.
const mapEvents = new Set(["mapLoaded", "screenUpdated", "tokensUpdated", "reload"]);

export function startSeats(): void {
  if (!document.getElementById("seats")) return;
  onHostEvent((name) => {
    if (name === "screenUpdated" || name === "mapLoaded" || name === "reload") loadMaps().catch(() => {});
    if (mapEvents.has(name) && tokens.size) loadTokens().catch(() => {});
    else if (events.has(name)) refresh();
  });
  load().catch((e) => say(errorText(e), "bad"));
  loadMaps().catch(() => {});
  window.setInterval(() => load().catch(() => {}), 3000);
}
