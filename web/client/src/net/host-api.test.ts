import { test } from "node:test";
import assert from "node:assert/strict";
import { HostAPIError, errorStatus, readAnswer } from "./host-api";

test("an answer's JSON is returned; an empty one (204) is null", () => {
  assert.deepEqual(readAnswer("GET", "seats", 200, true, '[{"id":"a"}]'), [{ id: "a" }]);
  assert.equal(readAnswer("DELETE", "client", 204, true, ""), null);
  assert.equal(readAnswer("GET", "x", 200, true, "not json"), null);
});

test("a failure carries the server's message and the status", () => {
  assert.throws(() => readAnswer("POST", "game/start", 409, false, '{"message":"combat is running"}'), (e: unknown) => {
    assert.ok(e instanceof HostAPIError);
    assert.equal(e.message, "combat is running");
    assert.equal(errorStatus(e), 409);
    return true;
  });
  assert.throws(() => readAnswer("GET", "offers", 503, false, '{"error":"import is off"}'), /^HostAPIError: import is off$/);
  // Without a message, what was asked and how it was answered.
  assert.throws(() => readAnswer("GET", "maps/x", 404, false, ""), /GET maps\/x answered 404/);
  assert.equal(errorStatus(new Error("x")), -1);
});
