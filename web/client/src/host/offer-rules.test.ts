import { test } from "node:test";
import assert from "node:assert/strict";
import { checkUpdatesText, compendiumText, installText, moduleInfo, offerDetails, offerTitle, updateText } from "./offer-rules";

const pkg = { name: "Bog", version: "1.2", type: "module", compatible: true };

test("an offer's title: its package, else what it points at; a web client says so", () => {
  assert.equal(offerTitle({ id: "o", status: "pending", package: pkg }), "Bog 1.2");
  assert.equal(offerTitle({ id: "o", status: "pending", url: "https://x/y.zip", type: "client" }), "Web client from https://x/y.zip");
  assert.equal(offerTitle({ id: "o", status: "pending", file: "bog.module" }), "File bog.module");
  assert.equal(offerTitle({ id: "o", status: "pending", manifest: "https://x/m.json" }), "https://x/m.json");
});

test("an offer's details: kind, standing against what is installed, origin", () => {
  assert.equal(offerDetails({ id: "o", status: "pending", package: { ...pkg, installed: "older", installedVersion: "1.0" }, from: "link", host: "x.org" }),
    "module · updates installed version 1.0 · from link · x.org");
  assert.equal(offerDetails({ id: "o", status: "pending", package: { ...pkg, installed: "newer", installedVersion: "2.0", compatible: false }, from: "file" }),
    "module · a newer version 2.0 is installed · not compatible with this version of Companion · from file");
  assert.equal(offerDetails({ id: "o", status: "pending", package: { ...pkg, installed: "same" }, from: "link" }), "module · this version is installed · from link");
  assert.equal(offerDetails({ id: "o", status: "pending", checking: true, from: "link" }), "reading the manifest… · from link");
});

test("an install's progress reads the file, then writes its entries", () => {
  assert.equal(installText({ stage: "reading", done: 25, total: 100, entries: 1200 }), `Reading entries: ${(1200).toLocaleString()} (25% of the file)`);
  assert.equal(installText({ stage: "reading", entries: 3 }), "Reading entries: 3");
  assert.equal(installText({ stage: "writing", done: 10, total: 40 }), "Writing 10 of 40 entries");
});

test("what an import made: a compendium's entries and notes", () => {
  assert.equal(compendiumText({ kind: "module", id: "m", name: "SRD", compendium: { entities: 46, notes: ["3 race not imported"] } }), ": 46 entries; 3 race not imported");
  assert.equal(compendiumText({ kind: "module", id: "m", name: "SRD", compendium: { entities: 1 } }), ": 1 entry");
  assert.equal(compendiumText({ kind: "module", id: "m", name: "SRD" }), "");
  assert.equal(compendiumText(undefined), "");
});

test("modules: their line, an update check's answer, and the check's summary", () => {
  assert.equal(moduleInfo({ id: "m", name: "Bog", version: "1.0", author: "Ann", category: "adventure" }), "version 1.0 · by Ann · adventure");
  assert.equal(moduleInfo({ id: "m", name: "Bog" }), "");
  assert.equal(updateText({ module: "m", update: true, available: "1.1", changelog: "Fixes." }), "Version 1.1 is available. Fixes.");
  assert.equal(updateText({ module: "m", available: "2.0", compatible: false }), "Version 2.0 needs another version of Companion.");
  assert.equal(updateText({ module: "m", available: "1.0", compatible: true }), "Up to date.");
  assert.equal(checkUpdatesText([]), "No module was installed from a package, so none can be updated.");
  assert.equal(checkUpdatesText([{ module: "a" }]), "Every module is up to date.");
  assert.equal(checkUpdatesText([{ module: "a", update: true }]), "1 update is available.");
  assert.equal(checkUpdatesText([{ module: "a", update: true }, { module: "b", update: true }]), "2 updates are available.");
});
