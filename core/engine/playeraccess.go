package engine

import (
	"context"

	"github.com/vttapp/companion/core"
)

// PlayerAccess reads and writes tokens and combatants as the public
// listener's clients may (GET, PUT and PATCH /api/tokens/{id} and
// /api/combatants/{id}, updateToken and updateCombatant): a hidden token
// or combatant does not exist for them (not found, as an unknown id), and
// their writes cannot hide or reveal one: `hidden` keeps its stored value,
// as the server-owned fields do, and so does what players are never shown
// (CombatantForPlayers, TokenForPlayers): a combatant's role, notes,
// effects' notes and a foe's numbers, a token's stored combatant
// (restoreServerOwned). The Service's own methods are the game master's
// (the host console) and see everything.
type PlayerAccess struct {
	s   *Service
	who core.Actor
}

// Token is Service.Token for players.
func (p PlayerAccess) Token(ctx context.Context, id string) (*core.Token, error) {
	t, err := p.s.kernel.ReadToken(ctx, id, true)
	if err == nil && t.MapID != p.s.kernel.ViewerMap(p.who.Seat) {
		return nil, core.NotFoundf("no token with id '%s'", core.Clip(id)) // on another seat's map
	}
	return t, err
}

// PutToken is Service.PutToken for players.
func (p PlayerAccess) PutToken(ctx context.Context, pathID string, t *core.Token) (*core.Token, error) {
	if err := p.who.RefuseSpectator("change tokens"); err != nil {
		return nil, err
	}
	return p.s.kernel.PutTokenChecked(ctx, pathID, t, true, p.tokenGuard(ctx))
}

// PatchToken is Service.PatchToken for players.
func (p PlayerAccess) PatchToken(ctx context.Context, id string, patch core.Object) (*core.Token, error) {
	if err := p.who.RefuseSpectator("change tokens"); err != nil {
		return nil, err
	}
	return p.s.kernel.PatchTokenChecked(ctx, id, patch, true, p.tokenGuard(ctx))
}

// Combatant is Service.Combatant for players, as they see it
// (CombatantForPlayers, naming only a token they see).
func (p PlayerAccess) Combatant(ctx context.Context, id string) (*core.Combatant, error) {
	return p.combatantView(ctx)(p.s.kernel.ReadCombatant(ctx, id, true))
}

// PutCombatant is Service.PutCombatant for players; it answers the stored
// combatant as they see it.
func (p PlayerAccess) PutCombatant(ctx context.Context, pathID string, c *core.Combatant) (*core.Combatant, error) {
	if err := p.who.RefuseSpectator("change combatants"); err != nil {
		return nil, err
	}
	return p.combatantView(ctx)(p.s.kernel.PutCombatantChecked(ctx, pathID, c, true, p.combatantGuard(ctx)))
}

// PatchCombatant is Service.PatchCombatant for players; it answers the
// stored combatant as they see it.
func (p PlayerAccess) PatchCombatant(ctx context.Context, id string, patch core.Object) (*core.Combatant, error) {
	if err := p.who.RefuseSpectator("change combatants"); err != nil {
		return nil, err
	}
	return p.combatantView(ctx)(p.s.kernel.PatchCombatantChecked(ctx, id, patch, true, p.combatantGuard(ctx)))
}

// combatantView turns a combatant read or stored for players into what
// they may see of it.
func (p PlayerAccess) combatantView(ctx context.Context) func(*core.Combatant, error) (*core.Combatant, error) {
	return func(c *core.Combatant, err error) (*core.Combatant, error) {
		if err != nil {
			return nil, err
		}
		pin := p.s.kernel.Pin()
		var out *core.Combatant
		err = pin.Store.View(ctx, func(tx core.Tx) error {
			out, err = pin.PlayerCombatantIn(tx, c)
			return err
		})
		return out, err
	}
}
