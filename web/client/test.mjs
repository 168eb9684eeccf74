// Runs the unit tests beside the sources (src/**/*.test.ts) with Node's
// test runner: each file is bundled by esbuild into a temporary folder
// first, since Node does not run TypeScript by itself.
import * as esbuild from "esbuild";
import { readdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";

const root = dirname(fileURLToPath(import.meta.url));
const tests = readdirSync(join(root, "src"), { recursive: true })
  .filter((f) => String(f).endsWith(".test.ts"))
  .map((f) => join(root, "src", String(f)))
  .sort();
const out = mkdtempSync(join(tmpdir(), "companion-client-test-"));
try {
  const files = [];
  for (const t of tests) {
    const file = join(out, relative(join(root, "src"), t).replace(/[\\/]/g, "_").replace(/\.ts$/, ".mjs"));
    await esbuild.build({ entryPoints: [t], bundle: true, format: "esm", platform: "node", outfile: file, logLevel: "warning" });
    files.push(file);
  }
  const r = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
