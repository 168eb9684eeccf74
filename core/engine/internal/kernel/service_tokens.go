package kernel

import (
	"context"
	"math"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/redact"
)

func (s *Kernel) ReadToken(ctx context.Context, id string, players bool) (*core.Token, error) {
	p := s.Pin()
	var t *core.Token
	err := p.Store.View(ctx, func(tx core.Tx) error {
		var err error
		t, err = p.tokenFor(tx, id, players)
		return err
	})
	return t, err
}

func (s *Kernel) PutTokenChecked(ctx context.Context, pathID string, t *core.Token, players bool, guard EditGuard[core.Token]) (*core.Token, error) {
	id := t.ID
	if id == "" {
		id = pathID
	}
	return s.replaceToken(ctx, id, wholeDocument(t), players, guard)
}

func (s *Kernel) PatchTokenChecked(ctx context.Context, id string, patch core.Object, players bool, guard EditGuard[core.Token]) (*core.Token, error) {
	if err := CheckPatchID(patch, id); err != nil {
		return nil, err
	}
	return s.replaceToken(ctx, id, MergePatch[core.Token](patch), players, guard)
}

// replaceToken stores a client's edit of a token, its server-owned fields
// kept.
func (s *Kernel) replaceToken(ctx context.Context, id string, e edit[core.Token], players bool, guard EditGuard[core.Token]) (*core.Token, error) {
	return replaceStored(s, ctx, e,
		func(p Pinned, tx core.Tx) (*core.Token, error) { return p.tokenFor(tx, id, players) },
		func(next, old *core.Token) { next.RestoreServerOwned(old, players) },
		Pinned.StoreToken, guard)
}

func (s Pinned) StoreToken(tx core.Tx, t *core.Token) ([]core.Event, error) {
	t.Normalize()
	if t.Role != "" && t.Role != core.RoleHostile && t.Role != core.RoleFriendly && t.Role != core.RoleNeutral {
		return nil, core.Invalidf("token: role must be hostile, friendly or neutral, not '%s'", core.Clip(t.Role))
	}
	// Where it stands: on the map's plane, as every map object (a token a
	// trillion pixels away is a mistake no client can draw or drag back).
	for name, c := range map[string]float64{"x": t.X, "y": t.Y} {
		if math.Abs(c) > mapobjects.MaxMapCoordinate {
			return nil, core.Invalidf("token: '%s' is %g: a coordinate is within ±%d map pixels", name, c, int(mapobjects.MaxMapCoordinate))
		}
	}
	if v := t.Vision; v != nil {
		// A light it carries or its darkvision: distances, never below zero.
		for name, r := range map[string]float64{"lightRadiusMin": v.LightRadiusMin, "lightRadiusMax": v.LightRadiusMax,
			"darkRadiusMin": v.DarkRadiusMin, "darkRadiusMax": v.DarkRadiusMax} {
			if r < 0 {
				return nil, core.Invalidf("token: vision's '%s' is a radius in grid units, not below 0", name)
			}
		}
	}
	t.Size, t.Health, t.Hitpoints, t.Bloodied, t.Dead = "", nil, nil, nil, nil // derived, never stored
	if err := core.CheckEncodedSize("token", t, core.MaxTokenBytes); err != nil {
		return nil, err
	}
	prev, err := tx.Token(t.ID)
	if core.IsNotFound(err) {
		prev, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := tx.PutToken(t); err != nil {
		return nil, err
	}
	updated, err := s.TokenEvent(tx, t, prev)
	if err != nil {
		return nil, err
	}
	events := []core.Event{updated}
	if prev != nil && prev.Hidden != t.Hidden {
		// One rule for hiding: a token's combatants are hidden with it and
		// shown with it, as a combatant added from a hidden token starts
		// hidden (AddCombatants), so players never see in the initiative a
		// creature that is not on their map.
		hidden, err := s.hideLinkedCombatants(tx, t)
		if err != nil {
			return nil, err
		}
		events = append(events, hidden...)
		// The combatants players see name it now, or no longer (shownLinks).
		game, err := s.LinkedGameEvents(tx, func(c *core.Combatant) bool { return c.TokenID != nil && *c.TokenID == t.ID })
		if err != nil {
			return nil, err
		}
		if len(hidden) > 0 && len(game) == 0 {
			// Every linked combatant was just hidden: players' initiative
			// still needs the game without them.
			if game, err = s.primaryGameEvents(tx); err != nil {
				return nil, err
			}
		}
		events = append(events, game...)
	}
	return events, nil
}

// hideLinkedCombatants gives the primary campaign's combatants that stand on
// t the token's hidden flag, and returns their events.
func (s Pinned) hideLinkedCombatants(tx core.Tx, t *core.Token) ([]core.Event, error) {
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
	var events []core.Event
	for _, cb := range combatants {
		if cb.TokenID == nil || *cb.TokenID != t.ID || cb.Hidden == t.Hidden {
			continue
		}
		cb.Hidden = t.Hidden
		stored, err := s.StoreCombatant(tx, cb)
		if err != nil {
			return nil, err
		}
		events = append(events, stored...)
	}
	return events, nil
}

// primaryGameEvents is gameUpdated for the primary campaign's game.
func (s Pinned) primaryGameEvents(tx core.Tx) ([]core.Event, error) {
	c, err := s.PrimaryCampaign(tx)
	if core.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return s.GameEvents(tx, c.ID)
}

// LinkedGameEvents is gameUpdated for the primary campaign's game when a
// visible combatant of it is linked as links says: what players see of
// its token link changed. None otherwise.
func (s Pinned) LinkedGameEvents(tx core.Tx, links func(*core.Combatant) bool) ([]core.Event, error) {
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
	for _, cb := range combatants {
		if !cb.Hidden && links(cb) {
			return s.GameEvents(tx, c.ID)
		}
	}
	return nil, nil
}

// TokenEvent is tokenUpdated for t as just stored in tx, prev its version
// before (nil when new; t itself when only what is derived from its
// combatant changed). The game master gets it with the fields derived from
// its combatant and its sight (playerTokenIn). Players get it only when
// they see it now, or saw it before and it was just hidden (the hub sends
// them {id, hidden} so that they drop it): a token on a map no player
// looks at (playerMaps), or hidden all along, is the game master's alone,
// its id included. The hub strips what players do not see of a token they
// do (TokenForPlayers: a foe's sight).
func (s Pinned) TokenEvent(tx core.Tx, t, prev *core.Token) (core.Event, error) {
	shown, err := s.playerTokenIn(tx, t)
	if err != nil {
		return core.Event{}, err
	}
	maps, err := s.PlayerMapsIn(tx)
	if err != nil {
		return core.Event{}, err
	}
	if maps.TokenShown(t) || maps.TokenShown(prev) {
		return core.Event{Name: core.EventTokenUpdated, Data: shown}, nil
	}
	return core.Event{Name: core.EventTokenUpdated, Data: redact.HostOnly(shown)}, nil
}
