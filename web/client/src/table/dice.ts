// Reads the dice engine's result JSON (a message's `rolls`, the shape of
// core/dice/result.go: {expression, formula, total, text, comment, tree}
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
 * The expression the dice tray builds: `2d6+3`; advantage and disadvantage
 * roll the dice twice and keep the best or worst (`2d20kh1+5` for one
 * d20, `4d6kh2` for two d6).
 */
export function trayExpression(c: TrayChoice): string {
  const count = Math.max(1, Math.min(100, Math.floor(c.count) || 1));
  let expr = `${count}d${c.sides}`;
  if (c.mode !== "normal") expr = `${count * 2}d${c.sides}${c.mode === "advantage" ? "kh" : "kl"}${count}`;
  const m = Math.trunc(c.modifier) || 0;
  if (m > 0) expr += `+${m}`;
  else if (m < 0) expr += `${m}`;
  return expr;
}
