package redact

import (
	"fmt"

	"github.com/vttapp/companion/core"
)

// TokenSize names a token's footprint as the real client reads it: the
// size letters of the common footprints (T half a cell, M one, L two, H
// three, G four, C six cells square) and "WxH" in cells otherwise.
func TokenSize(width, height float64) string {
	if width == height {
		switch width {
		case 0.5:
			return "T"
		case 1:
			return "M"
		case 2:
			return "L"
		case 3:
			return "H"
		case 4:
			return "G"
		case 6:
			return "C"
		}
	}
	return fmt.Sprintf("%gx%g", width, height)
}

// PlayerCombatant is a token's combatant as players may see it (the real
// client draws token.combatant's bloodied, defeated and effects): who it
// is, its initiative and state, its status effects (names and durations,
// playerEffects with their numbers dropped); never its data (hit points
// and the like), notes, attributes or modifiers. It stands on the token
// players see: a tokenId naming any other token is dropped.
func PlayerCombatant(c *core.Combatant, tokenID string) *core.Combatant {
	var own *string
	if c.TokenID != nil && *c.TokenID == tokenID {
		own = c.TokenID
	}
	return &core.Combatant{
		ID: c.ID, Label: c.Label, Name: c.Name, Role: c.Role, Initiative: c.Initiative,
		Attributes: core.Object{}, Modifiers: []core.Modifier{}, Effects: playerEffects(c.Effects, true),
		Bloodied: c.Bloodied, Defeated: c.Defeated, Player: c.Player, Image: c.Image,
		EntityType: c.EntityType, TokenID: own, Reference: c.Reference,
	}
}

// CombatantForPlayers returns a combatant as players may see it in a game
// (GET /api, gameUpdated) or a combatant event (combatantUpdated,
// combatantsUpdated): without its notes and its effects' notes, which are
// the game master's, and unless NumbersShown without its data, attributes
// and modifiers nor those of its effects (attributes {} and modifiers [],
// as the shapes require them). c is not changed; it is returned itself
// when nothing is left out. A player's write puts back what it leaves out
// (Combatant.keepFromPlayers). Its tokenId is dropped where it names a
// token players do not see (Service.playerCombatantsIn), which needs the
// store.
func CombatantForPlayers(c *core.Combatant) *core.Combatant {
	if c == nil {
		return nil
	}
	dropNumbers := !core.NumbersShown(c)
	hasNumbers := c.Data != nil || len(c.Attributes) > 0 || len(c.Modifiers) > 0
	if c.Notes == "" && !(dropNumbers && hasNumbers) && !effectsHaveSecrets(c.Effects, dropNumbers) {
		return c
	}
	cp := *c
	cp.Notes = ""
	cp.Effects = playerEffects(c.Effects, dropNumbers)
	if dropNumbers {
		cp.Data, cp.Attributes, cp.Modifiers = nil, core.Object{}, []core.Modifier{}
	}
	return &cp
}

// playerEffects is a combatant's status effects without their notes (the
// game master's) and, when dropNumbers, without their data, attributes and
// modifiers (a foe's effect says what it does to the foe's numbers):
// effects itself when none has any, else a copy.
func playerEffects(effects []core.StatusEffect, dropNumbers bool) []core.StatusEffect {
	if !effectsHaveSecrets(effects, dropNumbers) {
		return effects
	}
	out := append([]core.StatusEffect(nil), effects...)
	for i := range out {
		out[i].Notes = ""
		if dropNumbers {
			out[i].Data, out[i].Attributes, out[i].Modifiers = nil, core.Object{}, []core.Modifier{}
		}
	}
	return out
}

// effectsHaveSecrets reports whether an effect has notes or, when
// numbers count, data, attributes or modifiers.
func effectsHaveSecrets(effects []core.StatusEffect, numbers bool) bool {
	for _, e := range effects {
		if e.Notes != "" || numbers && (e.Data != nil || len(e.Attributes) > 0 || len(e.Modifiers) > 0) {
			return true
		}
	}
	return false
}

// TokenForPlayers returns a token as players may see it when it is sent
// alone (tokenUpdated; GET, PUT and PATCH /api/tokens/{id}, the answer to
// updateToken): the combatant stored with it as playerCombatant strips it,
// or none when that combatant is hidden, as in a map (playerToken); and
// its vision.sight only when it is the party's (PartySight). t is not
// changed; it is returned itself when nothing is left out. A player's
// write keeps the stored combatant (Token.restoreServerOwned).
func TokenForPlayers(t *core.Token) *core.Token {
	if t == nil {
		return nil
	}
	foeSight := t.Vision != nil && t.Vision.Sight != nil && !PartySight(t)
	if t.Combatant == nil && !foeSight {
		return t
	}
	cp := *t
	if foeSight {
		cp = *TokenWithSight(t, nil)
	}
	if t.Combatant != nil {
		cp.Combatant = nil
		if !t.Combatant.Hidden {
			cp.Combatant = PlayerCombatant(t.Combatant, t.ID)
		}
	}
	return &cp
}
