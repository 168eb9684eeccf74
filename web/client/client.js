// A minimal player page: it reads GET /api and lists the game state. The
// full web client (live events over WebSocket, the map) replaces it.
"use strict";

function item(text, cls) {
  const li = document.createElement("li");
  li.textContent = text;
  if (cls) li.className = cls;
  return li;
}

function fill(id, items) {
  const el = document.getElementById(id);
  el.replaceChildren(...items);
}

async function load() {
  const status = document.getElementById("status");
  try {
    const res = await fetch("/api", { headers: { Accept: "application/json" } });
    const body = await res.json();
    if (!res.ok) {
      status.textContent = body.message || ("Error " + res.status);
      status.className = "error";
      return;
    }
    status.textContent = "Companion " + body.version + (body.paused ? " — paused" : "");
    status.className = "muted";
    const game = body.game || {};
    document.getElementById("round").textContent = game.started
      ? "Round " + game.round + ", turn " + game.turn
      : "No combat running.";
    fill("combatants", (game.combatants || []).map(c =>
      item(c.name || c.label || c.id, c.id === game.combatantId ? "active" : "")));
    const map = body.map;
    document.getElementById("map").textContent = map ? map.name : "No map on the player screen.";
    fill("tokens", map ? (map.tokens || []).map(t => item((t.name || t.label || t.id) + " (" + Math.round(t.x) + ", " + Math.round(t.y) + ")")) : []);
    fill("messages", (body.messages || []).map(m => item((m.source ? m.source + ": " : "") + m.text)));
  } catch (err) {
    status.textContent = "Cannot reach the server: " + err.message;
    status.className = "error";
  }
}

load();
setInterval(load, 5000);
