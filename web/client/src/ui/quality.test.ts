import { test } from "node:test";
import assert from "node:assert/strict";
import { noticeState } from "./quality";

test("the quality notice shows while lowered, stays away once dismissed, and comes back after a restore", () => {
  assert.deepEqual(noticeState(true, false), { hidden: false, dismissed: false });
  assert.deepEqual(noticeState(true, true), { hidden: true, dismissed: true }, "dismissed: lowered again silently");
  assert.deepEqual(noticeState(false, true), { hidden: true, dismissed: false }, "full quality forgets the dismissal");
  assert.deepEqual(noticeState(false, false), { hidden: true, dismissed: false });
});
