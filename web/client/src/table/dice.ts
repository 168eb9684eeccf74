// Reads the dice engine's result JSON (a message's `rolls`, the shape of
// dice/result.go: {expression, formula, total, text, comment, tree}
// or {expression, error}) into what the chat draws: every die in order
// with whether it counted, and how the dice tray's choices become an
// expression.

export interface DieView {
  sides: number;
  value: number;
  /** Counts toward the total: neither dropped nor rerolled. */
  kept: boolean;
  dropped?: boolean;
  rerolled?: boolean;
  /** Exploded, or was added by an explosion. */
  exploded?: boolean;
  crit?: boolean;
  fumble?: boolean;
}

export interface RollView {
  formula: string;
  total: number | null;
  comment: string;
  label: string;
  dice: DieView[];
  error?: string;
  expression: string;
}

interface RawDie {
  value?: number;
  sides?: number;
  fate?: boolean;
  dropped?: boolean;
  rerolled?: boolean;
  exploded?: boolean;
  explosion?: boolean;
  critical?: string;
}

interface RawNode {
  type?: string;
  dice?: RawDie[];
  args?: RawNode[];
  countFrom?: RawNode;
  sidesFrom?: RawNode;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

function collect(n: RawNode | undefined, out: RawDie[], depth = 0): void {
  if (!n || depth > 64) return;
  if (n.countFrom) collect(n.countFrom, out, depth + 1);
  if (n.sidesFrom) collect(n.sidesFrom, out, depth + 1);
  if (Array.isArray(n.dice)) for (const d of n.dice) if (isObj(d)) out.push(d as RawDie);
  if (Array.isArray(n.args)) for (const a of n.args) if (isObj(a)) collect(a as RawNode, out, depth + 1);
}

/** One roll result (an element of `rolls`, object or JSON text) as drawn. */
export function readRoll(raw: unknown): RollView | null {
  let r = raw;
  if (typeof r === "string") {
    try {
      r = JSON.parse(r);
    } catch {
      return null;
    }
  }
  if (!isObj(r)) return null;
  const expression = typeof r.expression === "string" ? r.expression : "";
  if (typeof r.error === "string") return { formula: expression, total: null, comment: "", label: "", dice: [], error: r.error, expression };
  const raws: RawDie[] = [];
  collect(r.tree as RawNode, raws);
  // The engine marks criticals only when asked (cs/cf); without any mark a
  // d20's natural 20 and 1 are the table's criticals and fumbles.
  const marked = raws.some((d) => typeof d.critical === "string" && d.critical !== "");
  const dice = raws.map((d): DieView => {
    const sides = typeof d.sides === "number" ? d.sides : 0;
    const value = typeof d.value === "number" ? d.value : 0;
    const kept = !d.dropped && !d.rerolled;
    const v: DieView = { sides, value, kept };
    if (d.dropped) v.dropped = true;
    if (d.rerolled) v.rerolled = true;
    if (d.exploded || d.explosion) v.exploded = true;
    if (marked ? d.critical === "success" : sides === 20 && value === 20 && !d.fate) v.crit = true;
    if (marked ? d.critical === "failure" : sides === 20 && value === 1 && !d.fate) v.fumble = true;
    return v;
  });
  return {
    formula: typeof r.formula === "string" ? r.formula : expression,
    total: typeof r.total === "number" ? r.total : null,
    comment: typeof r.comment === "string" ? r.comment : "",
    label: typeof r.label === "string" ? r.label : "",
    dice,
    expression,
  };
}

export interface TrayChoice {
  sides: number;
  count: number;
  modifier: number;
  mode: "normal" | "advantage" | "disadvantage";
}

/**
 * The expression the dice tray builds for one roll: `2d6+3`; advantage and
 * disadvantage roll a die twice and keep the best or worst (`2d20kh1+5`).
 * With a count above one, advantage applies to each die, as players of
 * such systems expect (two attacks with advantage are two separate
 * `2d20kh1` rolls, not `4d20kh2`): see trayText.
 */
export function trayExpression(c: TrayChoice): string {
  const count = trayCount(c);
  let expr = c.mode === "normal" ? `${count}d${c.sides}` : `2d${c.sides}${c.mode === "advantage" ? "kh" : "kl"}1`;
  const m = Math.trunc(c.modifier) || 0;
  if (m > 0) expr += `+${m}`;
  else if (m < 0) expr += `${m}`;
  return expr;
}

/** What the tray sends: `/r EXPR`, or with advantage and a count above one, one inline roll per die. */
export function trayText(c: TrayChoice): string {
  const count = trayCount(c);
  const expr = trayExpression(c);
  if (c.mode === "normal" || count === 1) return `/r ${expr}`;
  return Array.from({ length: Math.min(count, 20) }, () => `[[${expr}]]`).join(" ");
}

/**
 * The tray's line rolled privately, to the game master only: a /r command
 * becomes /gmroll, inline rolls are whispered to the GM.
 */
export function privateTrayText(text: string): string {
  if (text.startsWith("/r ")) return `/gmroll ${text.slice(3)}`;
  return `/w GM ${text}`;
}

function trayCount(c: TrayChoice): number {
  return Math.max(1, Math.min(100, Math.floor(c.count) || 1));
}

/**
 * A dice error as a person reads it. The engine's errors name the column
 * and the expression (`unexpected end at 6 in "1d20+": expected a number,
 * dice or '('`), which reads as parser internals in a chat: this says
 * `Couldn't read '1d20+' — expected a number, dice or '(' after '+'`.
 * Anything else is returned as it is.
 */
export function humanRollError(err: string): string {
  const m = /^(.*?) at (\d+) in "((?:[^"\\]|\\.)*)"(?:: (.*))?$/s.exec(err.trim());
  if (!m) return err;
  const [, said, pos, rawExpr, hint] = m;
  // The server may put its own words first ("cannot roll '1d20+': …").
  const what = said.slice(said.lastIndexOf(": ") + 1).trim();
  let expr = rawExpr;
  try {
    expr = JSON.parse(`"${rawExpr}"`);
  } catch {
    /* keep it as written */
  }
  const chars = [...expr];
  const col = Number(pos);
  let why: string;
  if (what === "unexpected end") {
    const last = chars.slice(0, col - 1).join("").trimEnd().slice(-1);
    why = (hint || "it ends too soon") + (last ? ` after '${last}'` : "");
  } else if (what.startsWith("unexpected ")) {
    why = `${what.slice("unexpected ".length)} is out of place (character ${col})${hint ? `: ${hint}` : ""}`;
  } else why = what + (hint ? `: ${hint}` : "");
  return `Couldn't read '${expr}' — ${why}`;
}
