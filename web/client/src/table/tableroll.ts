// A roll on a random table (a tableRoll message, its text the roll as
// JSON: docs/api.md, "Random tables") as lines a person reads: the
// table's name, the formula and result, then each cell of the row, with
// the rolls of the tables it linked indented beneath.

interface Detail {
  name?: string;
  value?: string;
  rolls?: Roll[];
}

interface Roll {
  name?: string;
  formula?: string;
  result?: number;
  details?: Detail[];
}

/** The Markdown of a table roll, or null when text is not one. */
export function tableRollText(text: string): string | null {
  let roll: Roll;
  try {
    roll = JSON.parse(text) as Roll;
  } catch {
    return null;
  }
  if (!roll || typeof roll !== "object" || typeof roll.name !== "string") return null;
  const lines: string[] = [];
  write(roll, 0, lines);
  return lines.join("\n");
}

function write(roll: Roll, depth: number, lines: string[]): void {
  const pad = "  ".repeat(depth);
  const head = roll.formula && roll.formula !== "Multiple rolls" ? ` (${roll.formula}: ${roll.result ?? "?"})` : "";
  lines.push(`${depth ? `${pad}- ` : ""}**${markdownText(roll.name ?? "")}**${head}`);
  for (const d of roll.details ?? []) {
    const label = d.name ? `${markdownText(d.name)}: ` : "";
    lines.push(`${pad}- ${label}${d.value ?? ""}`);
    for (const nested of d.rolls ?? []) write(nested, depth + 1, lines);
  }
}

/** Markdown's emphasis marks in a name, made text. */
function markdownText(s: string): string {
  return s.replace(/([*_`[\]\\])/g, "\\$1");
}
