import { test } from "node:test";
import assert from "node:assert/strict";
import { EventRouter, RequestError, applyTo, type OutboundEnvelope, type Transport } from "./events";

/** A transport that records what was sent, open or not. */
function wire(open = true): Transport & { sent: OutboundEnvelope[]; open: boolean } {
  const t = {
    sent: [] as OutboundEnvelope[],
    open,
    send(env: OutboundEnvelope) {
      if (!t.open) return false;
      t.sent.push(env);
      return true;
    },
  };
  return t;
}

test("handlers run by name, in the order they were added, then onAny", () => {
  const r = new EventRouter();
  const seen: string[] = [];
  r.on("tokenMoved", (m) => seen.push(`first ${m.id}`));
  r.on("tokenMoved", (m) => seen.push(`second ${m.x}`));
  r.on("systemPaused", (p) => seen.push(`paused ${p}`));
  r.onAny((env) => seen.push(`any ${env.name}`));
  r.dispatch({ name: "tokenMoved", data: { id: "A", x: 5, y: 6, state: "end" } });
  r.dispatch({ name: "systemPaused", data: true });
  r.dispatch({ name: "somethingNew", data: {} });
  assert.deepEqual(seen, ["first A", "second 5", "any tokenMoved", "paused true", "any systemPaused", "any somethingNew"]);
});

test("a handler that throws is reported and the others still run", () => {
  const errors: string[] = [];
  const r = new EventRouter(() => null, (name, err) => errors.push(`${name}: ${(err as Error).message}`));
  let after = false;
  r.on("mapLoaded", () => {
    throw new Error("broken");
  });
  r.on("mapLoaded", () => (after = true));
  r.dispatch({ name: "mapLoaded", data: null });
  assert.deepEqual(errors, ["mapLoaded: broken"]);
  assert.ok(after);
});

test("on returns a function that removes the handler", () => {
  const r = new EventRouter();
  let n = 0;
  const off = r.on("reload", () => n++);
  r.dispatch({ name: "reload", data: {} });
  off();
  r.dispatch({ name: "reload", data: {} });
  assert.equal(n, 1);
});

test("a table's handlers are added by name", () => {
  const r = new EventRouter();
  const seen: unknown[] = [];
  r.onTable({ fogUpdated: (f) => seen.push(f.id), markerMoved: (d) => seen.push(d) });
  r.dispatch({ name: "fogUpdated", data: { id: "M1", image: "x" } });
  r.dispatch({ name: "markerMoved", data: 7 });
  r.dispatch({ name: "tileMoved", data: 8 });
  assert.deepEqual(seen, ["M1", 7]);
  assert.equal(applyTo({ reload: () => {} }, "reload", {}), true);
  assert.equal(applyTo({ reload: () => {} }, "somethingNew", {}), false);
});

test("send puts the name and data in one envelope, without a requestId; false when closed", () => {
  const t = wire();
  const r = new EventRouter(() => t);
  assert.equal(r.send("pointerUpdated", { x: 1, y: 2, state: "start" }), true);
  assert.deepEqual(t.sent, [{ name: "pointerUpdated", data: { x: 1, y: 2, state: "start" } }]);
  t.open = false;
  assert.equal(r.send("pointerUpdated", { x: 1, y: 2 }), false);
  assert.equal(new EventRouter().send("leaveSeat", null), false); // no socket yet
});

test("a request's answer settles it and reaches no handler", async () => {
  const t = wire();
  const r = new EventRouter(() => t);
  const seen: string[] = [];
  r.on("takeSeat" as never, () => seen.push("handler"));
  r.onAny((env) => seen.push(`any ${env.name}`));
  const answer = r.request("takeSeat", { seatId: "S1", player: "Ann" })!;
  assert.ok(answer);
  const sent = t.sent[0];
  assert.equal(sent.name, "takeSeat");
  assert.ok(sent.requestId);
  r.dispatch({ name: "takeSeat", data: { seat: { id: "S1", name: "Ann", kind: "character", taken: true } }, responseId: sent.requestId });
  const got = await answer;
  assert.equal(got.seat?.id, "S1");
  assert.deepEqual(seen, []);
  assert.equal(r.waiting, 0);
  // The same responseId again is no longer ours: it goes to the handlers.
  r.dispatch({ name: "takeSeat" as never, data: {}, responseId: sent.requestId });
  assert.deepEqual(seen, ["handler", "any takeSeat"]);
});

test("an error answer rejects with the server's message and kind", async () => {
  const t = wire();
  const r = new EventRouter(() => t);
  const answer = r.request("createMessage", { text: "/roll 1d" })!;
  r.dispatch({ name: "error", data: { message: "bad dice", kind: "invalid", request: "createMessage" }, responseId: t.sent[0].requestId });
  await assert.rejects(answer, (err: unknown) => err instanceof RequestError && err.message === "bad dice" && err.kind === "invalid" && err.request === "createMessage");
});

test("a request is null when the socket is not open, and times out when asked to", async () => {
  const t = wire(false);
  const r = new EventRouter(() => t);
  assert.equal(r.request("getCharacter", null), null);
  t.open = true;
  const answer = r.request("getCharacter", null, { timeoutMs: 5 })!;
  await assert.rejects(answer, /did not answer/);
  assert.equal(r.waiting, 0);
});

test("senders and handlers are typed by the event's name (checked by npm run check)", () => {
  const r = new EventRouter(() => wire());
  // @ts-expect-error: a drag step needs its token's id, position and state
  r.send("tokenMoved", { x: 1, y: 2 });
  // @ts-expect-error: no client request is called this
  r.send("tokenMovedd", {});
  // @ts-expect-error: updateDoor's state is open, closed or locked
  r.send("updateDoor", { id: "D", state: "ajar" });
  // @ts-expect-error: systemPaused's data is a boolean
  r.on("systemPaused", (p) => p.length);
  // @ts-expect-error: no server event is called this
  r.on("tokenMovedd", () => {});
  r.on("tokenMoved", (m) => m.state);
  assert.ok(true);
});
