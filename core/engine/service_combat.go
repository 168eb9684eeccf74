package engine

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/vttapp/companion/core/turns"

	"github.com/vttapp/companion/core"
)

// AddCombatants adds combatants to the primary campaign's game. A unique
// entity (a character) keeps its one shared combatant: asking again links
// the token to it rather than adding a second. New combatants whose role
// the system's autoRoll names get their initiative rolled at once.
func (s *tableRoom) AddCombatants(ctx context.Context, list []core.NewCombatant) ([]*core.Combatant, error) {
	p := s.pin()
	if len(list) == 0 {
		return nil, core.Invalidf("give at least one combatant: {\"tokenId\"} or {\"entityId\"}")
	}
	type prepared struct {
		c    *core.Combatant
		rule *core.InitiativeRule
		tok  *core.Token
	}
	var ready []prepared
	for i, n := range list {
		if (n.TokenID == "") == (n.EntityID == "") {
			return nil, core.Invalidf("combatant %d: give exactly one of 'tokenId' and 'entityId'", i+1)
		}
		c := &core.Combatant{Name: n.Name, Hidden: n.Hidden, Role: core.RoleHostile}
		var tok *core.Token
		entityID := n.EntityID
		if n.TokenID != "" {
			t, err := s.Token(ctx, n.TokenID)
			if err != nil {
				return nil, err
			}
			tok = t
			id := t.ID
			c.TokenID = &id
			if c.Name == "" {
				c.Name = t.Name
			}
			if t.Role != "" {
				c.Role = t.Role
			}
			c.Image, c.Reference, c.Player = t.Image, t.Reference, t.Player
			c.Hidden = c.Hidden || t.Hidden
			if t.EntityID != nil {
				entityID = *t.EntityID
			}
		}
		var e *core.Entity
		if entityID != "" {
			var err error
			if e, err = p.Entity(ctx, "", entityID); err != nil {
				return nil, err
			}
			p.fromEntity(c, e, tok == nil)
		}
		if c.Name == "" {
			return nil, core.Invalidf("combatant %d: it needs a name", i+1)
		}
		rule, err := p.initiativeRule(ctx, e)
		if err != nil {
			return nil, err
		}
		ready = append(ready, prepared{c: c, rule: rule, tok: tok})
	}
	var out []*core.Combatant
	err := p.write(ctx, func(tx core.Tx) ([]core.Event, error) {
		camp, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		existing, err := tx.Combatants(camp.ID)
		if err != nil {
			return nil, err
		}
		rank := 0
		for _, c := range existing {
			rank = max(rank, c.Rank)
		}
		var changed []*core.Combatant
		inCombat := map[string]bool{} // token ids that have a combatant
		for _, c := range existing {
			if c.TokenID != nil && *c.TokenID != "" {
				inCombat[*c.TokenID] = true
			}
		}
		for _, item := range ready {
			c := item.c
			if c.TokenID != nil {
				// A second click on Add to combat: the token has its
				// combatant, and a second would take a second turn.
				if inCombat[*c.TokenID] {
					return nil, core.Conflictf("'%s' is in combat already", core.Clip(c.Name))
				}
				inCombat[*c.TokenID] = true
			}
			if shared := sharedCombatant(existing, c, p.rules); shared != nil {
				if c.TokenID != nil {
					shared.TokenID = c.TokenID
				}
				c = shared
			} else {
				rank++
				c.Campaign, c.Rank = camp.ID, rank
				if item.rule != nil && autoRolls(item.rule.AutoRoll, c.Role) {
					if err := p.rollOne(c, item.rule); err != nil {
						return nil, err
					}
				}
			}
			changed = append(changed, c)
		}
		out = changed
		return p.storeCombat(tx, camp.ID, changed)
	})
	return out, err
}

// fromEntity fills a combatant from its entity: link, kind, the system's
// ranges (hit points) with their maxima, and, without a token, name and
// image.
func (s pinned) fromEntity(c *core.Combatant, e *core.Entity, noToken bool) {
	c.EntityID, c.EntityType = e.ID, e.Kind
	if c.Reference == "" {
		c.Reference = "/" + e.Kind + "/" + e.Slug
	}
	if noToken {
		if c.Name == "" {
			c.Name = e.Name
		}
		if c.Image == nil && e.Image != "" {
			img := e.Image
			c.Image = &img
		}
	}
	if s.rules == nil {
		return
	}
	if s.rules.IsUnique(e.Kind) {
		c.Role, c.Player = core.RoleFriendly, true
	}
	c.Data = core.Object{}
	for _, r := range s.rules.Ranges(e.Kind) {
		v, ok := numberOf(e.Data[r])
		if !ok {
			continue
		}
		c.Data[r] = v
		if m, ok := numberOf(e.Data[maxKey(r)]); ok {
			c.Data[maxKey(r)] = m
		} else {
			c.Data[maxKey(r)] = v
		}
	}
	if ranges := s.rules.Ranges(e.Kind); len(ranges) > 0 {
		if t, ok := numberOf(e.Data["temp_"+ranges[0]]); ok && t > 0 {
			c.Data["temp_"+ranges[0]] = t // its temporary hit points come along (sharedKeys)
		}
	}
}

func (s pinned) initiativeRule(ctx context.Context, e *core.Entity) (*core.InitiativeRule, error) {
	if ir, ok := s.rules.(core.InitiativeRules); ok {
		return ir.InitiativeFor(ctx, e)
	}
	return &core.InitiativeRule{Formula: "1d20"}, nil
}

// rollOne rolls a combatant's initiative into its first slot.
func (s *Kernel) rollOne(c *core.Combatant, rule *core.InitiativeRule) error {
	roller, ok := s.roller.(core.TotalRoller)
	if !ok {
		return core.Conflictf("this server has no dice roller for initiative")
	}
	total, err := roller.Total(rule.Formula)
	if err != nil {
		return core.Invalidf("initiative formula '%s': %s", core.Clip(rule.Formula), core.MessageOf(err))
	}
	setInitiative(c, total+rule.Bonus)
	return nil
}

// RollInitiative rolls initiative for the given combatants (every one when
// ids is empty) through the system's rules, then settles ties among equal
// values by the system's tie-break, then a roll-off, by reordering the
// combatants' ranks (ties keep rank order: see TurnOrder).
func (s *tableRoom) RollInitiative(ctx context.Context, ids []string) ([]*core.Combatant, error) {
	p := s.pin()
	if p.turnsPassed() {
		return nil, core.Conflictf("this game has no initiative: the one acting passes the turn")
	}
	var camp *core.Campaign
	var combatants []*core.Combatant
	err := p.store.View(ctx, func(tx core.Tx) error {
		var err error
		if camp, err = p.primaryCampaign(tx); err != nil {
			return err
		}
		combatants, err = tx.Combatants(camp.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	chosen, err := pick(combatants, ids)
	if err != nil {
		return nil, err
	}
	tiebreak := map[string]float64{}
	totals := map[string]any{} // the new values, applied to the combatants as they are at the write
	for _, c := range chosen {
		var e *core.Entity
		if c.EntityID != "" {
			if e, err = p.Entity(ctx, "", c.EntityID); err != nil && !core.IsNotFound(err) {
				return nil, err
			}
		}
		rule, err := p.initiativeRule(ctx, e)
		if err != nil {
			return nil, err
		}
		cp := *c
		if err := p.rollOne(&cp, rule); err != nil {
			return nil, err
		}
		tiebreak[c.ID] = rule.Tiebreak
		totals[c.ID] = cp.Initiative[0].Value
	}
	return p.applyInitiativeOut(ctx, camp.ID, totals, tiebreak)
}

// applyInitiative sets rolled initiative values (by combatant id) and
// settles ties by tiebreak then a roll-off, in one transaction.
func (s seatsPinned) applyInitiative(ctx context.Context, campaignID string, totals map[string]any, tiebreak map[string]float64) error {
	_, err := s.applyInitiativeOut(ctx, campaignID, totals, tiebreak)
	return err
}

func (s pinned) applyInitiativeOut(ctx context.Context, campaignID string, totals map[string]any, tiebreak map[string]float64) ([]*core.Combatant, error) {
	var out []*core.Combatant
	err := s.write(ctx, func(tx core.Tx) ([]core.Event, error) {
		current, err := tx.Combatants(campaignID)
		if err != nil {
			return nil, err
		}
		rolled := map[string]bool{}
		for _, c := range current {
			if v, ok := totals[c.ID]; ok {
				setInitiative(c, v)
				rolled[c.ID] = true
			}
		}
		changed := s.settleTies(current, tiebreak, rolled)
		out = changed
		game, err := tx.Game(campaignID)
		if err != nil {
			return nil, err
		}
		if game.Started && game.Round <= 1 && game.Turn <= 1 {
			// Nobody has passed a turn yet: the fight starts again from the
			// top of the new order rather than skip the ones now above the
			// acting combatant.
			order := s.turnOrder(current)
			if len(order) > 0 {
				turns.SetTurn(game, order, 0)
				if err := tx.PutGame(campaignID, game); err != nil {
					return nil, err
				}
			}
		}
		return s.storeCombat(tx, campaignID, changed)
	})
	return out, err
}

// settleTies reorders the ranks of combatants with equal initiative: the
// higher tie-break first, then the winner of a roll-off (1d20 each). It returns the
// combatants whose document or rank changed (the rolled ones always).
func (s pinned) settleTies(all []*core.Combatant, tiebreak map[string]float64, rolled map[string]bool) []*core.Combatant {
	order := slices.Clone(all)
	rolloff := map[string]float64{}
	roller, _ := s.roller.(core.TotalRoller)
	for _, c := range order {
		if roller != nil {
			rolloff[c.ID], _ = roller.Total("1d20")
		}
	}
	ascending := s.ascending()
	slices.SortStableFunc(order, func(a, b *core.Combatant) int {
		va, vb := firstInitiative(a), firstInitiative(b)
		if va != vb {
			if ascending {
				return cmp.Compare(va, vb)
			}
			return cmp.Compare(vb, va)
		}
		if d := cmp.Compare(tiebreak[b.ID], tiebreak[a.ID]); d != 0 {
			return d
		}
		if va == core.NoInitiative {
			return a.Rank - b.Rank // not rolled: keep the stored order
		}
		return cmp.Compare(rolloff[b.ID], rolloff[a.ID])
	})
	ranks := make([]int, len(all))
	for i, c := range all {
		ranks[i] = c.Rank
	}
	slices.Sort(ranks)
	var changed []*core.Combatant
	for i, c := range order {
		if c.Rank != ranks[i] || rolled[c.ID] {
			c.Rank = ranks[i]
			changed = append(changed, c)
		}
	}
	return changed
}

// SetInitiative sets a combatant's initiative value (the game master's
// edit): a number, or null to take it out of the turn order.
func (s *tableRoom) SetInitiative(ctx context.Context, id string, value *float64) (*core.Combatant, error) {
	p := s.pin()
	return p.changeCombatant(ctx, id, func(_ core.Tx, c *core.Combatant) error {
		if value == nil {
			setInitiative(c, nil)
			return nil
		}
		if math.IsNaN(*value) || math.IsInf(*value, 0) {
			return core.Invalidf("initiative must be a finite number")
		}
		setInitiative(c, *value)
		return nil
	})
}

// changeCombatant reads, changes and stores one combatant in one
// transaction, with the combat events.
func (s pinned) changeCombatant(ctx context.Context, id string, change func(tx core.Tx, c *core.Combatant) error) (*core.Combatant, error) {
	var out *core.Combatant
	err := s.write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := combatantByID(tx, id)
		if err != nil {
			return nil, err
		}
		if err := change(tx, c); err != nil {
			return nil, err
		}
		out = c
		return s.storeCombat(tx, c.Campaign, []*core.Combatant{c})
	})
	return out, err
}

// DeleteCombatant removes a combatant from the game. When it was acting,
// Next turn passes to the one that moved into its place.
func (s *tableRoom) DeleteCombatant(ctx context.Context, id string) error {
	p := s.pin()
	return p.write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := combatantByID(tx, id)
		if err != nil {
			return nil, err
		}
		if err := tx.DeleteCombatant(id); err != nil {
			return nil, err
		}
		events, err := p.gameEvents(tx, c.Campaign)
		if err != nil {
			return nil, err
		}
		if c.TokenID != nil {
			tokenEvents, err := p.linkedTokenEvents(tx, []*core.Combatant{c})
			if err != nil {
				return nil, err
			}
			events = append(events, tokenEvents...)
		}
		return events, nil
	})
}

// storeCombat stores changed combatants and returns their events, then
// gameUpdated and the tokens they stand on. A change of initiative may move
// the acting combatant in the order: the game's turn follows it. A change
// players see nothing of in the lists (a foe's hit points) reaches them as
// the turn alone (gamelists.go).
func (s pinned) storeCombat(tx core.Tx, campaignID string, changed []*core.Combatant) ([]core.Event, error) {
	all, err := tx.Combatants(campaignID)
	if err != nil {
		return nil, err
	}
	before, err := s.playerListsIn(tx, campaignID, all) // gamelists.go
	if err != nil {
		return nil, err
	}
	stored := s.orderedWith(all, changed)
	var events []core.Event
	for _, c := range stored {
		e, err := s.storeCombatant(tx, c)
		if err != nil {
			return nil, err
		}
		events = append(events, e...)
	}
	if err := s.followActing(tx, campaignID); err != nil {
		return nil, err
	}
	game, err := s.gameEvents(tx, campaignID)
	if err != nil {
		return nil, err
	}
	turnIfListsAre(game, before)
	events = append(events, game...)
	tokens, err := s.linkedTokenEvents(tx, changed)
	if err != nil {
		return nil, err
	}
	return append(events, tokens...), nil
}

// orderedWith is changed, and the other combatants of the game (stored:
// all of them as the store has them now) whose explicit turn order must
// change for changed to take their places in it (keepExplicitOrder): a
// combatant added to a seeded game, or one whose initiative the game
// master set, acts where its value puts it.
func (s pinned) orderedWith(stored, changed []*core.Combatant) []*core.Combatant {
	byID := make(map[string]int, len(stored))
	for i, c := range stored {
		byID[c.ID] = i
	}
	all := slices.Clone(stored)
	for _, c := range changed {
		if i, ok := byID[c.ID]; ok {
			all[i] = c
		} else {
			all = append(all, c)
		}
	}
	out := changed
	for _, c := range turns.KeepExplicitOrder(all, s.ascending()) {
		if !slices.Contains(out, c) {
			out = append(slices.Clip(out), c)
		}
	}
	return out
}

// followActing sets a running game's turn number to the acting slot's place
// in the turn order as it now stands. When the acting slot has left the
// order the turn number is kept: Next passes to the one that moved into its
// place (stepCombat).
func (s pinned) followActing(tx core.Tx, campaignID string) error {
	game, err := tx.Game(campaignID)
	if err != nil || !game.Started {
		return err
	}
	combatants, err := tx.Combatants(campaignID)
	if err != nil {
		return err
	}
	order := s.turnOrder(combatants)
	pos, found := turns.CurrentSlot(game, order)
	if !found || game.Turn == pos+1 {
		return nil
	}
	game.Turn = pos + 1
	return tx.PutGame(campaignID, game)
}

// gameEvents is gameUpdated for a campaign's game as it now stands.
func (s pinned) gameEvents(tx core.Tx, campaignID string) ([]core.Event, error) {
	game, err := tx.Game(campaignID)
	if err != nil {
		return nil, err
	}
	if game.Combatants, err = tx.Combatants(campaignID); err != nil {
		return nil, err
	}
	views, err := s.gameViews(tx, game)
	if err != nil {
		return nil, err
	}
	return []core.Event{{Name: core.EventGameUpdated, Data: views}}, nil
}

// linkedTokenEvents is tokenUpdated for the tokens of the combatants, with
// the fields derived from them (bloodied, dead...).
func (s pinned) linkedTokenEvents(tx core.Tx, combatants []*core.Combatant) ([]core.Event, error) {
	var events []core.Event
	for _, c := range combatants {
		if c.TokenID == nil || *c.TokenID == "" {
			continue
		}
		t, err := tx.Token(*c.TokenID)
		if core.IsNotFound(err) {
			continue // links are soft
		}
		if err != nil {
			return nil, err
		}
		updated, err := s.tokenEvent(tx, t, t)
		if err != nil {
			return nil, err
		}
		events = append(events, updated)
	}
	return events, nil
}

// PatchCombatantInGame merges a patch into a combatant as PatchCombatant
// does, and also tells clients gameUpdated and its token: hiding a
// combatant takes it out of the players' initiative list.
func (s *tableRoom) PatchCombatantInGame(ctx context.Context, id string, patch core.Object) (*core.Combatant, error) {
	p := s.pin()
	if err := checkPatchID(patch, id); err != nil {
		return nil, err
	}
	return p.changeCombatant(ctx, id, func(_ core.Tx, c *core.Combatant) error {
		next, err := mergePatch[core.Combatant](patch).next(c)
		if err != nil {
			return err
		}
		next.RestoreServerOwned(c, false)
		*c = *next
		return nil
	})
}

// TurnOrder is the turn order of combatants under the loaded system's
// sort direction.
func (s *tableRoom) TurnOrder(combatants []*core.Combatant) []core.TurnSlot {
	return s.pin().turnOrder(combatants)
}

func (s pinned) turnOrder(combatants []*core.Combatant) []core.TurnSlot {
	if s.turnsPassed() {
		return turns.PassingOrder(combatants)
	}
	return turns.TurnOrder(combatants, s.ascending())
}

// ascending reports a system whose lowest initiative acts first.
func (s pinned) ascending() bool {
	sorter, ok := s.rules.(turns.InitiativeSorter)
	return ok && sorter.InitiativeAscending()
}
