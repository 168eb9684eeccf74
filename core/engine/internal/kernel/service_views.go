package kernel

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// hostMap is a map as the game master sees it: every token (hidden ones
// included) with the fields derived from its combatant, and the sight of
// every token with vision.
func (s Pinned) HostMapIn(tx core.Tx, m *core.Map) (*core.Map, error) {
	combatants, err := s.primaryCombatants(tx)
	if err != nil {
		return nil, err
	}
	out := *m
	out.Tokens = s.playerTokens(m.Tokens, combatants)
	return redact.WithHostSight(&out), nil
}

// hostGame is a game with every combatant and its creatures as the game
// master sees them.
func (s Pinned) gameViews(tx core.Tx, g *core.Game) (redact.Views, error) {
	players, err := s.playerGameIn(tx, g)
	if err != nil {
		return redact.Views{}, err
	}
	host, err := s.withCreatures(tx, g)
	if err != nil {
		return redact.Views{}, err
	}
	return redact.Views{Players: players, Host: host}, nil
}
