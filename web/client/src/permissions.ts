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
