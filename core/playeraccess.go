package core

import "context"

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
type PlayerAccess struct{ s *Service }

// Token is Service.Token for players.
func (p PlayerAccess) Token(ctx context.Context, id string) (*Token, error) {
	return p.s.token(ctx, id, true)
}

// PutToken is Service.PutToken for players.
func (p PlayerAccess) PutToken(ctx context.Context, pathID string, t *Token) (*Token, error) {
	return p.s.putToken(ctx, pathID, t, true)
}

// PatchToken is Service.PatchToken for players.
func (p PlayerAccess) PatchToken(ctx context.Context, id string, patch Object) (*Token, error) {
	return p.s.patchToken(ctx, id, patch, true)
}

// Combatant is Service.Combatant for players.
func (p PlayerAccess) Combatant(ctx context.Context, id string) (*Combatant, error) {
	return p.s.combatant(ctx, id, true)
}

// PutCombatant is Service.PutCombatant for players.
func (p PlayerAccess) PutCombatant(ctx context.Context, pathID string, c *Combatant) (*Combatant, error) {
	return p.s.putCombatant(ctx, pathID, c, true)
}

// PatchCombatant is Service.PatchCombatant for players.
func (p PlayerAccess) PatchCombatant(ctx context.Context, id string, patch Object) (*Combatant, error) {
	return p.s.patchCombatant(ctx, id, patch, true)
}
