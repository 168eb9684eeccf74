import { test } from "node:test";
import assert from "node:assert/strict";
import { imageSource } from "./fog";

test("fog image sources: URLs kept, fogUpdated's base64 made a data URL, paths rooted", () => {
  assert.equal(imageSource("data:image/png;base64,AAAA", false), "data:image/png;base64,AAAA");
  assert.equal(imageSource("/campaigns/c/maps/fog.png", false), "/campaigns/c/maps/fog.png");
  assert.equal(imageSource("https://example.org/f.png", true), "https://example.org/f.png");
  const b64 = `iVBORw0KGgo${"A".repeat(80)}`;
  assert.equal(imageSource(b64, true), `data:image/png;base64,${b64}`);
  assert.equal(imageSource("campaigns/c/fog.png", false), "/campaigns/c/fog.png");
});
