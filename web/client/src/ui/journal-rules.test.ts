import { test } from "node:test";
import assert from "node:assert/strict";
import { newEntries, newestShown, type JournalEntry } from "./journal-rules";

const entry = (id: string, shown: string): JournalEntry => ({ id, kind: "page", title: id, shown });

test("what was shown after the reader last looked is new; the newest marks where they are", () => {
  const list = [entry("a", "2026-12-01T10:00:00Z"), entry("b", "2026-12-01T11:00:00Z"), entry("c", "2026-12-01T12:00:00Z")];
  assert.deepEqual([...newEntries(list, "")], ["a", "b", "c"]);
  assert.deepEqual([...newEntries(list, "2026-12-01T11:00:00Z")], ["c"]);
  assert.equal(newestShown(list), "2026-12-01T12:00:00Z");
  assert.equal(newestShown([]), "");
});
