// Builds the player web client into dist/: app.js (one bundle, minified),
// app.css, index.html, the host console's GM map (gm/) and page (host/),
// and THIRD_PARTY_LICENSES.txt (the licence of every
// npm package that ends up in the bundle). The output is committed and
// embedded in the Go binary, so the build must be deterministic: same
// sources and lockfile, same bytes (no timestamps, no absolute paths,
// packages and files in sorted order).
import * as esbuild from "esbuild";
import { readFileSync, writeFileSync, mkdirSync, readdirSync, copyFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
// COMPANION_BUILD_READABLE=1 keeps names and lines (no minifying) for a
// profiler's eyes (tests/browser_perf_profile_test.go); never commit
// such a build: CI's stale-bundle check rebuilds minified.
const minify = process.env.COMPANION_BUILD_READABLE !== "1";
const dist = join(root, "dist");
mkdirSync(dist, { recursive: true });

const result = await esbuild.build({
  entryPoints: [join(root, "src/main.ts")],
  bundle: true,
  minify,
  format: "esm",
  target: ["es2022"],
  outfile: join(dist, "app.js"),
  metafile: true,
  legalComments: "none", // collected into THIRD_PARTY_LICENSES.txt instead
  sourcemap: false,
  absWorkingDir: root,
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
});

copyFileSync(join(root, "src/index.html"), join(dist, "index.html"));
copyFileSync(join(root, "src/app.css"), join(dist, "app.css"));

// The host console's GM map (src/gm): a second bundle reusing the map
// renderer, served on the host listener at /host/gm/.
const gm = await esbuild.build({
  entryPoints: [join(root, "src/gm/main.ts")],
  bundle: true,
  minify,
  format: "esm",
  target: ["es2022"],
  outfile: join(dist, "gm", "gm.js"),
  metafile: true,
  legalComments: "none",
  sourcemap: false,
  absWorkingDir: root,
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
});
copyFileSync(join(root, "src/gm/gm.css"), join(dist, "gm", "gm.css"));

// The host console (src/host): its page, its styles and one bundle,
// served on the host listener at /host/ (the GM map above is loaded by
// the same page from /host/gm/).
const host = await esbuild.build({
  entryPoints: [join(root, "src/host/main.ts")],
  bundle: true,
  minify,
  format: "esm",
  target: ["es2022"],
  outfile: join(dist, "host", "console.js"),
  metafile: true,
  legalComments: "none",
  sourcemap: false,
  absWorkingDir: root,
  logLevel: "warning",
});
for (const f of readdirSync(join(root, "src/host")).filter((f) => /\.(html|css)$/.test(f)).sort()) {
  copyFileSync(join(root, "src/host", f), join(dist, "host", f));
}

// The floor benchmark's bare PixiJS page (floor/): built here so that it
// uses the same PixiJS and esbuild as the client, but written to
// tests/testdata/floor/, which only the tests serve (no listener of the
// server has it; it is not embedded). Licence comments stay in the file.
const floorOut = join(root, "..", "..", "tests", "testdata", "floor");
mkdirSync(floorOut, { recursive: true });
await esbuild.build({
  entryPoints: [join(root, "floor/floor.ts")],
  bundle: true,
  minify,
  format: "esm",
  target: ["es2022"],
  outfile: join(floorOut, "floor.js"),
  legalComments: "eof",
  sourcemap: false,
  absWorkingDir: root,
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
});
copyFileSync(join(root, "floor/floor.html"), join(floorOut, "floor.html"));

// The packages whose code is in the bundle, from esbuild's list of inputs.
const packages = new Map(); // name -> folder
for (const input of [result, gm, host].flatMap((r) => Object.keys(r.metafile.inputs))) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m && !packages.has(m[1])) packages.set(m[1], join(root, "node_modules", m[1]));
}
const licenceNames = /^(licen[cs]e|copying|notice)(\.(md|txt))?$/i;
let text = "Third-party software bundled in app.js, gm/gm.js and host/console.js, with its licence.\n";
for (const name of [...packages.keys()].sort()) {
  const dir = packages.get(name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => licenceNames.test(f)).sort() : [];
  text += `\n${"=".repeat(78)}\n${name} ${pkg.version} (${pkg.license ?? "see below"})\n${"=".repeat(78)}\n`;
  if (files.length === 0) {
    // A few packages ship without a licence file. MIT (the only case met
    // so far) is reproduced from its standard text with the package's
    // author; anything else stops the build until someone looks at it.
    if (pkg.license !== "MIT") throw new Error(`${name}: no licence file and licence ${pkg.license}`);
    const author = typeof pkg.author === "string" ? pkg.author : pkg.author?.name ?? `the ${name} authors`;
    text += `\n(no licence file in the package; its package.json declares MIT)\n\n` + mitText(author) + "\n";
  }
  for (const f of files) text += "\n" + readFileSync(join(dir, f), "utf8").trim() + "\n";
}
writeFileSync(join(dist, "THIRD_PARTY_LICENSES.txt"), text);

const size = readFileSync(join(dist, "app.js")).length;
console.log(`dist/app.js ${size} bytes; ${packages.size} packages: ${[...packages.keys()].sort().join(", ")}`);

function mitText(holder) {
  return `MIT License

Copyright (c) ${holder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;
}
