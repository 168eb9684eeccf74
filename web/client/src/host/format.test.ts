import { test } from "node:test";
import assert from "node:assert/strict";
import { Drawn, bytes, plural, when } from "./format";
import { exportRows, needsText } from "./export-rules";

test("byte counts read as B, KiB, MiB; unknown as ?", () => {
  assert.equal(bytes(512), "512 B");
  assert.equal(bytes(1536), "1.5 KiB");
  assert.equal(bytes(3 << 20), "3.0 MiB");
  assert.equal(bytes(-1), "?");
  assert.equal(bytes(undefined), "?");
  assert.equal(bytes(NaN), "?");
});

test("a time that is not one reads as itself; none as nothing", () => {
  assert.equal(when("soon"), "soon");
  assert.equal(when(""), "");
  assert.equal(when(null), "");
  assert.notEqual(when("2026-01-02T03:04:05Z"), "2026-01-02T03:04:05Z");
  assert.equal(plural(1, "map", "maps"), "1 map");
  assert.equal(plural(0, "map", "maps"), "0 maps");
});

test("a section is redrawn only when its document changed, or after forget", () => {
  const d = new Drawn();
  assert.equal(d.changed("a", { x: 1 }), true);
  assert.equal(d.changed("a", { x: 1 }), false);
  assert.equal(d.changed("b", { x: 1 }), true);
  assert.equal(d.changed("a", { x: 2 }), true);
  d.forget("a");
  assert.equal(d.changed("a", { x: 2 }), true);
});

test("exports list the campaigns (the played one named so) before the modules", () => {
  const rows = exportRows([{ id: "c1", name: "Keep", primary: true }, { id: "c2", name: "Old" }], [{ id: "m1", name: "Bestiary" }]);
  assert.deepEqual(rows.map((r) => [r.kind, r.id, r.note]), [["campaign", "c1", "the campaign being played"], ["campaign", "c2", "campaign"], ["module", "m1", "module"]]);
  assert.equal(needsText("Keep", []), "“Keep” is whole in its archive.");
  assert.equal(needsText("Keep", [{ kind: "module", name: "SRD" }]), "“Keep” uses content of module “SRD”: download it too, and import it first.");
  assert.equal(needsText("Keep", [{ kind: "module", name: "A" }, { kind: "module", name: "B" }]), "“Keep” uses content of module “A”, module “B”: download them too, and import them first.");
});
