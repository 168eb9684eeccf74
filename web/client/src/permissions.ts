// What the local user may do on the map, from the host's interaction mode
// (none | token | all), the pause and the page's run mode.
import type { Interaction, Token } from "./types";

export interface Who {
  name: string;
  display: boolean;
}

/**
 * Which tokens this player may drag. `none`: none. `all`: every token the
 * page shows. `token`: the player's own — player tokens (`player: true`);
 * when one of them carries the player's name, only that one. The contract
 * has no token-to-client link, so the name is the only tie there is.
 * Nothing on a display, nothing while the game is paused.
 */
export function mayDrag(t: Token, who: Who | null, interaction: Interaction, paused: boolean, all: Iterable<Token>): boolean {
  if (!who || who.display || paused) return false;
  switch (interaction) {
    case "none":
      return false;
    case "all":
      return true;
    case "token": {
      if (t.player !== true) return false;
      const name = who.name.trim().toLowerCase();
      const mine = [...all].filter((o) => o.player === true && (o.name ?? "").trim().toLowerCase() === name);
      return mine.length === 0 || mine.some((o) => o.id === t.id);
    }
  }
}

/** Doors: any mode but none, not on a display, not while paused. */
export function mayUseDoors(who: Who | null, interaction: Interaction, paused: boolean): boolean {
  return !!who && !who.display && interaction !== "none" && !paused;
}

/**
 * Whose sight a page shows. Party vision is shared (every friendly or
 * player token) unless the host's screen setting sharedVision is "never":
 * then a player sees through the token that carries their name, when there
 * is one. Displays always show the party's.
 */
export function seesThrough(t: Token, who: Who | null, sharedVision: string | undefined, all: Iterable<Token>): boolean {
  const party = (t.player === true || t.role === "friendly") && !!t.vision && t.vision.enabled !== false;
  if (!party || sharedVision !== "never" || !who || who.display) return party;
  const name = who.name.trim().toLowerCase();
  const mine = [...all].filter((o) => (o.name ?? "").trim().toLowerCase() === name && (o.player === true || o.role === "friendly"));
  return mine.length === 0 || mine.some((o) => o.id === t.id);
}
