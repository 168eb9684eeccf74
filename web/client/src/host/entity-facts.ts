// What the console reads of an entity for the combat rows and the selected
// token's card: armour class, and the health the system keeps under its
// kind's first range (max_<key> its maximum, temp_<key> its temporary
// points: GET /host/api/system lists each kind's ranges). Pure, so Node
// tests it.

export interface EntityFacts {
  ac: number | null;
  maxHP: number | null;
}

/** Armour class: a number, {value}, or a list of them (the first counts). */
export function armorClass(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (Array.isArray(v)) return v.length ? armorClass(v[0]) : null;
  if (v && typeof v === "object" && typeof (v as { value?: unknown }).value === "number") return (v as { value: number }).value;
  return null;
}

/** The facts of an entity (GET /host/api/entities/{collection}/{id}); key is its health key ("" when it keeps none). */
export function factsOf(entity: unknown, key: string): EntityFacts {
  const d = ((entity && typeof entity === "object" ? (entity as { data?: unknown }).data : null) ?? {}) as Record<string, unknown>;
  const max = key ? d[`max_${key}`] : undefined;
  const cur = key ? d[key] : undefined;
  const maxHP = typeof max === "number" ? max : typeof cur === "number" ? cur : null;
  return { ac: armorClass(d.armor_class ?? d.ac), maxHP };
}

/**
 * The health key of a combatant: its kind's first range; for one of no
 * kind (or a kind the system does not know), the first of the system's
 * health keys its data carries; "" when none.
 */
export function healthKey(kind: string | null | undefined, data: Record<string, unknown> | undefined, ranges: Record<string, string>): string {
  if (kind && kind in ranges) return ranges[kind];
  for (const key of new Set(Object.values(ranges))) if (key && data && key in data) return key;
  return "";
}

/**
 * A reference the console may open as a stat block: "/<kind>/<slug-or-id>"
 * (what the API hands out), nothing else (no other site, no query).
 */
export function isStatReference(ref: unknown): ref is string {
  return typeof ref === "string" && /^\/[a-z][a-z0-9_]*\/[A-Za-z0-9_-]+$/.test(ref);
}

/** A combatant's health under the system's key, when kept as a number. */
export function hitPoints(data: Record<string, unknown> | undefined, key: string): { hp: number; max: number | null; temp: number | null } | null {
  const d = data ?? {};
  const cur = key ? d[key] : undefined;
  if (typeof cur !== "number") return null;
  const max = d[`max_${key}`];
  const temp = d[`temp_${key}`];
  return { hp: cur, max: typeof max === "number" ? max : null, temp: typeof temp === "number" ? temp : null };
}
