// What the console reads of an entity for the combat rows and the selected
// token's card: armour class and maximum hit points, as the SRD writes
// them. Pure, so Node tests it.

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

/** The facts of an entity (GET /host/api/entities/{collection}/{id}). */
export function factsOf(entity: unknown): EntityFacts {
  const d = ((entity && typeof entity === "object" ? (entity as { data?: unknown }).data : null) ?? {}) as Record<string, unknown>;
  const maxHP = typeof d.max_hit_points === "number" ? d.max_hit_points : typeof d.hit_points === "number" ? d.hit_points : null;
  return { ac: armorClass(d.armor_class ?? d.ac), maxHP };
}

/**
 * A reference the console may open as a stat block: "/<kind>/<slug-or-id>"
 * (what the API hands out), nothing else (no other site, no query).
 */
export function isStatReference(ref: unknown): ref is string {
  return typeof ref === "string" && /^\/[a-z][a-z0-9_]*\/[A-Za-z0-9_-]+$/.test(ref);
}

/** A combatant's hit points when the system keeps them as hit_points (D&D 5e). */
export function hitPoints(data: Record<string, unknown> | undefined): { hp: number; max: number | null; temp: number | null } | null {
  const d = data ?? {};
  if (typeof d.hit_points !== "number") return null;
  return {
    hp: d.hit_points,
    max: typeof d.max_hit_points === "number" ? d.max_hit_points : null,
    temp: typeof d.temp_hit_points === "number" ? d.temp_hit_points : null,
  };
}
