package kernel

import (
	"strings"

	"github.com/vttapp/companion/core"
)

// Status effects with durations (StatusEffect duration, durationUnit,
// durationType, roundStart, turnStart, source). An effect lasts:
//
//   - durationType "" (or any other): duration rounds from when it was
//     applied, ending when the turn order comes back to the slot where it
//     was applied, duration rounds later;
//   - a durationType ending in "StartNextTurn" ("targetStartNextTurn",
//     "sourceStartNextTurn"): until the start of the target's (or the
//     source combatant's) duration-th next turn;
//   - one ending in "EndNextTurn": until the end of that turn.
//
// durationUnit "round" (or none) counts rounds, "minute" ten rounds, "hour"
// 600; an effect without a duration, or in another unit, lasts until the
// game master removes it. Effects expire as the turn advances (Next turn).

// EffectElapsed counts, in an effect's data, the turns already seen of a
// StartNextTurn or EndNextTurn effect.
const EffectElapsed = "turnsElapsed"

// EffectRounds is an effect's duration in rounds, 0 when it does not
// expire by itself.
func EffectRounds(e core.StatusEffect) float64 {
	if e.Duration <= 0 {
		return 0
	}
	switch strings.ToLower(e.DurationUnit) {
	case "", "round", "rounds":
		return e.Duration
	case "minute", "minutes":
		return e.Duration * 10
	case "hour", "hours":
		return e.Duration * 600
	}
	return 0
}

// expireEffects runs when the turn passes from the acting combatant ended
// (its id, "" at the start of combat) to the game's acting one. It returns
// the combatants whose effects changed, with the expired effects removed
// and the turn counters of the others advanced.
func expireEffects(combatants []*core.Combatant, ended string, g *core.Game) []*core.Combatant {
	var changed []*core.Combatant
	for _, c := range combatants {
		var kept []core.StatusEffect
		dirty := false
		for _, e := range c.Effects {
			next, expired, touched := advanceEffect(e, c.ID, ended, g)
			if touched {
				dirty = true
			}
			if !expired {
				kept = append(kept, next)
			}
		}
		if dirty {
			if kept == nil {
				kept = []core.StatusEffect{}
			}
			c.Effects = kept
			changed = append(changed, c)
		}
	}
	return changed
}

// advanceEffect applies one turn change to an effect on combatant target.
func advanceEffect(e core.StatusEffect, target, ended string, g *core.Game) (next core.StatusEffect, expired, touched bool) {
	rounds := EffectRounds(e)
	if rounds == 0 {
		return e, false, false
	}
	kind := strings.ToLower(e.DurationType)
	who := target
	if strings.HasPrefix(kind, "source") && e.Source != "" {
		who = e.Source
	}
	var hit bool
	switch {
	case strings.HasSuffix(kind, "startnextturn"):
		hit = g.CombatantID == who
	case strings.HasSuffix(kind, "endnextturn"):
		hit = ended == who
	default:
		// Duration rounds after (roundStart, turnStart).
		start := max(e.RoundStart, 1)
		end := float64(start) + rounds
		round := float64(g.Round)
		gone := round > end || (round == end && g.Turn >= max(e.TurnStart, 1))
		return e, gone, gone
	}
	if !hit {
		return e, false, false
	}
	seen, _ := NumberOf(e.Data[EffectElapsed])
	seen++
	if seen >= rounds {
		return e, true, true
	}
	e.Data = CloneObject(e.Data)
	e.Data[EffectElapsed] = seen
	return e, false, true
}
