import { test } from "node:test";
import assert from "node:assert/strict";
import { tableRollText } from "./tableroll";

test("a table roll reads as its name, roll and cells, nested rolls indented", () => {
  const roll = { id: "r", name: "Hoard", formula: "1d100", result: 42, details: [{ name: "Find", value: "a pouch of [gems](/table/gems)", rolls: [{ name: "Gems", formula: "1d4", result: 3, details: [{ name: "Gem", value: "onyx" }] }] }] };
  assert.equal(tableRollText(JSON.stringify(roll)), "**Hoard** (1d100: 42)\n- Find: a pouch of [gems](/table/gems)\n  - **Gems** (1d4: 3)\n  - Gem: onyx");
  assert.equal(tableRollText("not json"), null);
  assert.equal(tableRollText("{\"x\":1}"), null);
});
