// Host console: seats, roles and the join key (docs/host-console.md,
// "Seats and the join key"). Plain JavaScript like console.js, in its own
// file so the two change apart; it draws into the #seats section of
// index.html and keeps itself current from the host socket's events (the
// "companion:host-event" DOM events gm.js passes on), with a slow poll as
// the fallback. Text from the server goes in as text, never as HTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.includes("-")) node.setAttribute(k, v === true ? "" : String(v));
      else node[k] = v;
    }
    for (const c of children) {
      if (c === undefined || c === null || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch("/host/api/" + path, init);
    } catch {
      throw new Error("The server is not answering.");
    }
    if (resp.status === 204) return null;
    let data = null;
    try {
      data = await resp.json();
    } catch {
      /* no body */
    }
    if (!resp.ok) throw new Error((data && data.message) || "The server answered " + resp.status + ".");
    return data;
  }

  function say(text, kind) {
    const m = $("seats-msg");
    m.textContent = text || "";
    m.className = "msg" + (kind ? " " + kind : "");
  }

  // run does fn with the button disabled, saying what went wrong.
  async function run(button, fn) {
    if (button) button.disabled = true;
    try {
      await fn();
    } catch (e) {
      say(e.message, "bad");
    } finally {
      if (button) button.disabled = false;
    }
    refresh();
  }

  let last = "";
  let clients = [];
  // The tokens of the map on the player screen, read when the game master
  // first opens a seat's "Other tokens…" (the campaign is not polled: the
  // console's own card follows it from the live socket), and again when
  // the screen's map or its tokens change.
  let tokens = null;
  let openSeat = "";

  async function load() {
    const [join, seats, list] = await Promise.all([api("GET", "join"), api("GET", "seats"), api("GET", "clients")]);
    const key = JSON.stringify([join, seats, list.map((c) => [c.channel, c.name, c.role, c.seat, c.runMode]), tokens]);
    if (key === last) return;
    last = key;
    clients = list;
    drawJoin(join);
    drawSeats(seats);
    drawClients(list, seats);
  }

  async function loadTokens() {
    tokens = await mapTokens();
    last = "";
    await load();
  }

  async function mapTokens() {
    try {
      const view = await api("GET", "campaign");
      const onScreen = (view.maps || []).find((m) => m.onScreen);
      if (!onScreen) return [];
      const map = await api("GET", "maps/" + encodeURIComponent(onScreen.id));
      return (map.tokens || []).map((t) => ({ id: t.id, name: t.name || t.id, entityId: t.entityId || "" }));
    } catch {
      return [];
    }
  }

  function drawJoin(join) {
    const box = $("join-key");
    const toggle = el("input", { type: "checkbox", id: "join-key-on", checked: !!join.enabled });
    toggle.onchange = () => run(toggle, async () => {
      await api("PATCH", "join", { enabled: toggle.checked });
      say(toggle.checked ? "The join key is on: only those with the link below get in. Everyone else was disconnected."
        : "The join key is off: anyone on the network may join.", "good");
    });
    const parts = [el("label", { className: "switch" }, toggle, " Players need the link with the join key")];
    if (join.enabled) {
      const fresh = el("button", { type: "button", id: "join-new-key" }, "Draw a new key");
      fresh.onclick = () => {
        if (!confirm("Draw a new key? Everyone who joined with the old link is disconnected and needs the new one.")) return;
        run(fresh, async () => {
          await api("POST", "join/new-key");
          say("New keys drawn: give the players the new link.", "good");
        });
      };
      parts.push(el("div", { className: "buttons" }, fresh),
        linkBox("Players' link", join.playerLink, join.playerLinkQR, "join-player-link"),
        linkBox("Spectators' link (watch only)", join.spectatorLink, join.spectatorLinkQR, "join-spectator-link"));
    } else {
      parts.push(linkBox("Link for players", join.clientLink, join.clientLinkQR, "join-client-link"));
    }
    box.replaceChildren(...parts);
  }

  function linkBox(title, link, qr, id) {
    return el("div", { className: "join-link" },
      el("h3", {}, title),
      qr ? el("img", { src: qr, alt: "QR code of " + title, width: 148, height: 148 }) : null,
      el("a", { href: link, id, target: "_blank", rel: "noopener" }, link));
  }

  function drawSeats(seats) {
    const rows = $("seat-rows");
    $("seats-empty").hidden = seats.length > 0;
    $("seats-table").hidden = seats.length === 0;
    const players = clients.filter((c) => (!c.runMode || c.runMode === "normal") && c.role !== "spectator");
    rows.replaceChildren(...seats.map((s) => {
      const who = s.taken ? (s.player || "taken") + (s.clients && s.clients.length ? "" : " (not connected)") : "free";
      const give = el("select", { "aria-label": "Give " + s.name + " to" },
        el("option", { value: "" }, "Give to…"),
        ...players.map((c) => el("option", { value: String(c.channel) }, (c.name || "#" + c.channel) + (c.seat ? " (has a seat)" : ""))));
      give.onchange = () => {
        const channel = Number(give.value);
        if (!channel) return;
        run(give, async () => {
          await api("POST", "seats/" + encodeURIComponent(s.id) + "/assign", { channel });
          say(s.name + " is played by " + (players.find((c) => c.channel === channel)?.name || "#" + channel) + ".", "good");
        });
      };
      const free = el("button", { type: "button", className: "seat-free", disabled: !s.taken }, "Free");
      free.onclick = () => run(free, async () => {
        await api("POST", "seats/" + encodeURIComponent(s.id) + "/free");
        say(s.name + " is free.", "good");
      });
      const others = (tokens || []).filter((t) => t.entityId !== s.id);
      const controls = el("details", { open: openSeat === s.id }, el("summary", {}, (s.controls || []).length ? (s.controls.length + " other token" + (s.controls.length === 1 ? "" : "s")) : "Other tokens…"),
        tokens === null ? el("p", { className: "small muted" }, "Reading the map…") :
        others.length ? el("div", { className: "seat-controls" }, ...others.map((t) => {
          const box = el("input", { type: "checkbox", checked: (s.controls || []).includes(t.id) });
          box.onchange = () => run(box, async () => {
            const now = new Set(s.controls || []);
            if (box.checked) now.add(t.id); else now.delete(t.id);
            await api("PUT", "seats/" + encodeURIComponent(s.id) + "/controls", { tokens: [...now] });
            say(s.name + (box.checked ? " now moves " : " no longer moves ") + t.name + ".", "good");
          });
          return el("label", {}, box, " " + t.name);
        })) : el("p", { className: "small muted" }, "No other token on the player screen's map."));
      controls.addEventListener("toggle", () => {
        openSeat = controls.open ? s.id : openSeat === s.id ? "" : openSeat;
        if (controls.open && tokens === null) loadTokens().catch((e) => say(e.message, "bad"));
      });
      return el("tr", { "data-seat": s.id },
        el("td", {}, s.name),
        el("td", { className: s.taken ? "seat-taken" : "muted" }, who),
        el("td", {}, el("div", { className: "buttons" }, give, free), controls));
    }));
  }

  function drawClients(list, seats) {
    const rows = $("role-rows");
    $("roles-empty").hidden = list.length > 0;
    $("roles-table").hidden = list.length === 0;
    const seatName = (id) => (seats.find((s) => s.id === id) || {}).name || "";
    rows.replaceChildren(...list.map((c) => {
      const display = c.runMode && c.runMode !== "normal";
      const role = display ? "display" : c.role || "player";
      const kick = el("button", { type: "button", className: "danger client-kick" }, "Kick");
      kick.onclick = () => {
        if (!confirm("Send " + (c.name || "#" + c.channel) + " away? Their seat is freed; with the join key on, they need a new link (everyone else keeps playing).")) return;
        run(kick, async () => {
          await api("POST", "clients/" + c.channel + "/kick");
          say((c.name || "#" + c.channel) + " was sent away.", "good");
        });
      };
      const roleButton = display ? null : el("button", { type: "button", className: "client-role" }, role === "spectator" ? "Make a player" : "Make a spectator");
      if (roleButton) {
        roleButton.onclick = () => run(roleButton, async () => {
          await api("PATCH", "clients/" + c.channel, { role: role === "spectator" ? "player" : "spectator" });
        });
      }
      return el("tr", { "data-channel": String(c.channel) },
        el("td", {}, c.name || "(unnamed) #" + c.channel),
        el("td", { className: "client-role-name" }, role),
        el("td", {}, c.seat ? seatName(c.seat) : "—"),
        el("td", {}, el("div", { className: "buttons" }, roleButton, kick)));
    }));
  }

  let timer = 0;
  function refresh() {
    if (timer) return;
    timer = setTimeout(() => {
      timer = 0;
      load().catch(() => {});
    }, 30);
  }

  const events = new Set(["seatsUpdated", "accessChanged", "clientUpdated", "clientConnected", "clientDisconnected", "reload"]);
  // Changes of the screen's map or its token list (not single tokens: a
  // drag sends many) read the tokens again, once they were read.
  const mapEvents = new Set(["mapLoaded", "screenUpdated", "tokensUpdated", "reload"]);

  function start() {
    if (!$("seats")) return;
    window.addEventListener("companion:host-event", (ev) => {
      const name = ev.detail && ev.detail.name;
      if (mapEvents.has(name) && tokens !== null) loadTokens().catch(() => {});
      else if (events.has(name)) refresh();
    });
    load().catch((e) => say(e.message, "bad"));
    setInterval(() => load().catch(() => {}), 3000);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
