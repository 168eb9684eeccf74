// The Content cards' rules, apart from drawing (so Node tests them): an
// offer's title, details and status, an install's progress line, what an
// import made, and what a module's update check says.
import type { DeepPartial } from "./partial";
import type { ImportResult as FullImportResult, InstallProgress as FullInstallProgress, Module, Offer as FullOffer, ModuleUpdate } from "./types";

type Offer = DeepPartial<FullOffer>;
type ImportResult = DeepPartial<FullImportResult>;
type InstallProgress = DeepPartial<FullInstallProgress>;
type ModuleRow = DeepPartial<Module>;
type UpdateCheck = DeepPartial<ModuleUpdate>;

export const offerStatus: Record<string, string> = {
  pending: "Waiting for you",
  downloading: "Downloading",
  installed: "Installed",
  declined: "Declined",
  failed: "Failed",
};

/** An offer's title: its package, else what it points at; a web client says so. */
export function offerTitle(o: Offer): string {
  const pkg = o.package;
  return (o.type === "client" ? "Web client from " : "") + (pkg ? `${pkg.name} ${pkg.version}` : o.url || o.manifest || (o.file ? `File ${o.file}` : ""));
}

/** An offer's details line: the package's kind and standing, and where it came from. */
export function offerDetails(o: Offer): string {
  const pkg = o.package;
  const details: string[] = [];
  if (pkg) {
    if (pkg.type) details.push(pkg.type);
    if (pkg.installed === "same") details.push("this version is installed");
    else if (pkg.installed === "older") details.push(`updates installed version ${pkg.installedVersion}`);
    else if (pkg.installed === "newer") details.push(`a newer version ${pkg.installedVersion} is installed`);
    if (!pkg.compatible) details.push("not compatible with this version of Companion");
  } else if (o.checking) {
    details.push("reading the manifest…");
  }
  details.push(`from ${o.from}${o.host ? ` · ${o.host}` : ""}`);
  return details.join(" · ");
}

/**
 * How far a long install has come (a compendium of thousands of entries):
 * the file read and its entries mapped, then the rows written.
 */
export function installText(p: InstallProgress): string {
  const total = p.total ?? 0;
  if (p.stage === "reading") {
    return `Reading entries: ${(p.entries || 0).toLocaleString()}${total > 0 ? ` (${Math.floor((100 * (p.done ?? 0)) / total)}% of the file)` : ""}`;
  }
  return `Writing ${(p.done || 0).toLocaleString()} of ${total.toLocaleString()} entries`;
}

/** ": 46 entries; 3 race not imported: …" after a compendium's name; "" otherwise. */
export function compendiumText(res: ImportResult | undefined): string {
  const c = res?.compendium;
  if (!c) return "";
  return `: ${[`${c.entities} ${c.entities === 1 ? "entry" : "entries"}`, ...(c.notes ?? [])].join("; ")}`;
}

/** A module's second line: version, author, category. */
export function moduleInfo(m: ModuleRow): string {
  return [m.version ? `version ${m.version}` : "", m.author ? `by ${m.author}` : "", m.category || ""].filter(Boolean).join(" · ");
}

/** What a module's update check says (its error is shown apart). */
export function updateText(u: UpdateCheck): string {
  if (u.update) return `Version ${u.available} is available.${u.changelog ? ` ${u.changelog}` : ""}`;
  if (u.available && !u.compatible) return `Version ${u.available} needs another version of Companion.`;
  return "Up to date.";
}

/** The message after Check for updates. */
export function checkUpdatesText(list: UpdateCheck[]): string {
  const n = list.filter((u) => u.update).length;
  if (list.length === 0) return "No module was installed from a package, so none can be updated.";
  if (n === 0) return "Every module is up to date.";
  return `${n} update${n === 1 ? " is" : "s are"} available.`;
}
