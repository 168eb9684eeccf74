package core

import "fmt"

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

// playerTokens returns copies of tokens with what the real client reads
// beside the stored fields: size always; where a visible combatant is
// linked (Combatant.TokenID), health, hitpoints, bloodied, dead and the
// combatant itself as players may see it (playerCombatant). A hidden
// combatant is not linked: its existence is the game master's. tokens are
// not changed.
func (s pinned) playerTokens(tokens []*Token, combatants []*Combatant) []*Token {
	linked := map[string]*Combatant{}
	for _, c := range combatants {
		if c.TokenID != nil && *c.TokenID != "" && !c.Hidden {
			linked[*c.TokenID] = c
		}
	}
	out := make([]*Token, len(tokens))
	for i, t := range tokens {
		out[i] = s.playerToken(t, linked[t.ID])
	}
	return out
}

// playerToken is one token of playerTokens; c is its combatant or nil.
func (s pinned) playerToken(t *Token, c *Combatant) *Token {
	cp := *t
	cp.Size = TokenSize(t.Width, t.Height)
	cp.Health, cp.Hitpoints, cp.Bloodied, cp.Dead, cp.Combatant = nil, nil, nil, nil, nil
	if c != nil && !c.Hidden {
		cp.Health, cp.Hitpoints = s.health(c)
		bloodied, dead := c.Bloodied, c.Defeated
		cp.Bloodied, cp.Dead = &bloodied, &dead
		cp.Combatant = playerCombatant(c)
	} else if t.Combatant != nil && !t.Combatant.Hidden {
		cp.Combatant = playerCombatant(t.Combatant) // one stored with the token, without its data
	}
	return &cp
}

// playerCombatant is a token's combatant as players may see it (the real
// client draws token.combatant's bloodied, defeated and effects): who it
// is, its initiative and state, its status effects (without their notes,
// playerEffects); never its data (hit points and the like), notes,
// attributes or modifiers.
func playerCombatant(c *Combatant) *Combatant {
	return &Combatant{
		ID: c.ID, Label: c.Label, Name: c.Name, Role: c.Role, Initiative: c.Initiative,
		Attributes: Object{}, Modifiers: []Modifier{}, Effects: playerEffects(c.Effects),
		Bloodied: c.Bloodied, Defeated: c.Defeated, Player: c.Player, Image: c.Image,
		EntityType: c.EntityType, TokenID: c.TokenID, Reference: c.Reference,
	}
}

// NumbersShown reports whether players may know a combatant's numbers (its
// data: hit points and the like). Only a friendly combatant's, the party
// and its allies: a hostile or neutral creature's are the game master's,
// players learn only bloodied and dead. Health, CombatantForPlayers and
// the token's combatant (playerCombatant, which never has data) follow it.
func NumbersShown(c *Combatant) bool { return c.Role == RoleFriendly }

// CombatantForPlayers returns a combatant as players may see it in a game
// (GET /api, gameUpdated) or a combatant event (combatantUpdated,
// combatantsUpdated): without its notes and its effects' notes, which are
// the game master's, and without its data unless NumbersShown. c is not
// changed; it is returned itself when nothing is left out.
func CombatantForPlayers(c *Combatant) *Combatant {
	if c == nil {
		return nil
	}
	dropData := c.Data != nil && !NumbersShown(c)
	if c.Notes == "" && !dropData && !effectsHaveNotes(c.Effects) {
		return c
	}
	cp := *c
	cp.Notes = ""
	cp.Effects = playerEffects(c.Effects)
	if dropData {
		cp.Data = nil
	}
	return &cp
}

// playerEffects is a combatant's status effects without their notes (the
// game master's): effects itself when none has notes, else a copy.
func playerEffects(effects []StatusEffect) []StatusEffect {
	if !effectsHaveNotes(effects) {
		return effects
	}
	out := append([]StatusEffect(nil), effects...)
	for i := range out {
		out[i].Notes = ""
	}
	return out
}

func effectsHaveNotes(effects []StatusEffect) bool {
	for _, e := range effects {
		if e.Notes != "" {
			return true
		}
	}
	return false
}

// playerMap is a map as players receive it: hidden objects left out
// (PlayerMap), tokens with what the real client reads (playerTokens) and
// sight computed (WithSight).
func (s pinned) playerMap(m *Map, combatants []*Combatant) *Map {
	shown := PlayerMap(m)
	out := *shown
	out.Tokens = s.playerTokens(shown.Tokens, combatants)
	return WithSight(&out)
}

// playerMapIn is playerMap with the primary campaign's combatants read in
// tx (none when there is no primary campaign).
func (s pinned) playerMapIn(tx Tx, m *Map) (*Map, error) {
	combatants, err := s.primaryCombatants(tx)
	if err != nil {
		return nil, err
	}
	return s.playerMap(m, combatants), nil
}

// playerTokenIn is a token as tokenUpdated carries it: derived fields
// from its combatant and its sight on its map.
func (s pinned) playerTokenIn(tx Tx, t *Token) (*Token, error) {
	combatants, err := s.primaryCombatants(tx)
	if err != nil {
		return nil, err
	}
	var linked *Combatant
	for _, c := range combatants {
		if c.TokenID != nil && *c.TokenID == t.ID {
			linked = c
			break
		}
	}
	return tokenSight(tx, s.playerToken(t, linked))
}

func (s pinned) primaryCombatants(tx Tx) ([]*Combatant, error) {
	if s.rules == nil {
		return nil, nil
	}
	c, err := s.primaryCampaign(tx)
	if IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	combatants, err := tx.Combatants(c.ID)
	if err != nil {
		return nil, err
	}
	return s.healthSources(tx, combatants)
}
