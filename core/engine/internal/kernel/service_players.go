package kernel

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// playerTokens returns copies of tokens with what the real client reads
// beside the stored fields: size always; where a visible combatant is
// linked (Combatant.TokenID), health, hitpoints, bloodied, dead and the
// combatant itself as players may see it (playerCombatant). A hidden
// combatant is not linked: its existence is the game master's. tokens are
// not changed.
func (s Pinned) playerTokens(tokens []*core.Token, combatants []*core.Combatant) []*core.Token {
	linked := map[string]*core.Combatant{}
	for _, c := range combatants {
		if c.TokenID != nil && *c.TokenID != "" && !c.Hidden {
			linked[*c.TokenID] = c
		}
	}
	out := make([]*core.Token, len(tokens))
	for i, t := range tokens {
		out[i] = s.playerToken(t, linked[t.ID])
	}
	return out
}

// playerToken is one token of playerTokens; c is its combatant or nil.
func (s Pinned) playerToken(t *core.Token, c *core.Combatant) *core.Token {
	cp := *t
	if t.Vision != nil && t.Vision.Sight != nil {
		v := *t.Vision
		v.Sight = nil // derived: WithSight computes it for the tokens players see by
		cp.Vision = &v
	}
	cp.Size = redact.TokenSize(t.Width, t.Height)
	cp.Health, cp.Hitpoints, cp.Bloodied, cp.Dead, cp.Combatant = nil, nil, nil, nil, nil
	if c != nil && !c.Hidden {
		cp.Health, cp.Hitpoints = s.Health(c)
		bloodied, dead := c.Bloodied, c.Defeated
		cp.Bloodied, cp.Dead = &bloodied, &dead
		cp.Combatant = redact.PlayerCombatant(c, t.ID)
	} else if t.Combatant != nil && !t.Combatant.Hidden {
		cp.Combatant = redact.PlayerCombatant(t.Combatant, t.ID) // one stored with the token, without its data
	}
	return &cp
}

// playerMap is a map as players receive it: hidden objects left out
// (PlayerMap), tokens with what the real client reads (playerTokens) and
// sight computed (WithSight).
func (s Pinned) playerMap(m *core.Map, combatants []*core.Combatant) *core.Map {
	shown := redact.PlayerMap(m)
	out := *shown
	out.Tokens = s.playerTokens(shown.Tokens, combatants)
	return redact.WithSight(&out)
}

// PlayerMapIn is playerMap with the primary campaign's combatants read in
// tx (none when there is no primary campaign).
func (s Pinned) PlayerMapIn(tx core.Tx, m *core.Map) (*core.Map, error) {
	combatants, err := s.primaryCombatants(tx)
	if err != nil {
		return nil, err
	}
	return s.playerMap(m, combatants), nil
}

// playerTokenIn is a token as tokenUpdated carries it: derived fields
// from its combatant and its sight on its map.
func (s Pinned) playerTokenIn(tx core.Tx, t *core.Token) (*core.Token, error) {
	combatants, err := s.primaryCombatants(tx)
	if err != nil {
		return nil, err
	}
	var linked *core.Combatant
	for _, c := range combatants {
		if c.TokenID != nil && *c.TokenID == t.ID {
			linked = c
			break
		}
	}
	return redact.TokenSight(tx, s.playerToken(t, linked))
}

func (s Pinned) primaryCombatants(tx core.Tx) ([]*core.Combatant, error) {
	if s.Rules == nil {
		return nil, nil
	}
	c, err := s.PrimaryCampaign(tx)
	if core.IsNotFound(err) {
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
