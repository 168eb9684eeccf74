package kernel

import (
	"cmp"
	"context"
	"slices"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/turns"
)

// FromEntity fills a combatant from its entity: link, kind, the system's
// ranges (hit points) with their maxima, and, without a token, name and
// image.
func (s Pinned) FromEntity(c *core.Combatant, e *core.Entity, noToken bool) {
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
	if s.Rules == nil {
		return
	}
	if s.Rules.IsUnique(e.Kind) {
		c.Role, c.Player = core.RoleFriendly, true
	}
	c.Data = core.Object{}
	for _, r := range s.Rules.Ranges(e.Kind) {
		v, ok := NumberOf(e.Data[r])
		if !ok {
			continue
		}
		c.Data[r] = v
		if m, ok := NumberOf(e.Data[MaxKey(r)]); ok {
			c.Data[MaxKey(r)] = m
		} else {
			c.Data[MaxKey(r)] = v
		}
	}
	if ranges := s.Rules.Ranges(e.Kind); len(ranges) > 0 {
		if t, ok := NumberOf(e.Data["temp_"+ranges[0]]); ok && t > 0 {
			c.Data["temp_"+ranges[0]] = t // its temporary hit points come along (sharedKeys)
		}
	}
}

func (s Pinned) InitiativeRule(ctx context.Context, e *core.Entity) (*core.InitiativeRule, error) {
	if ir, ok := s.Rules.(core.InitiativeRules); ok {
		return ir.InitiativeFor(ctx, e)
	}
	return &core.InitiativeRule{Formula: "1d20"}, nil
}

// RollOne rolls a combatant's initiative into its first slot.
func (s *Kernel) RollOne(c *core.Combatant, rule *core.InitiativeRule) error {
	roller, ok := s.Roller.(core.TotalRoller)
	if !ok {
		return core.Conflictf("this server has no dice roller for initiative")
	}
	total, err := roller.Total(rule.Formula)
	if err != nil {
		return core.Invalidf("initiative formula '%s': %s", core.Clip(rule.Formula), core.MessageOf(err))
	}
	SetInitiative(c, total+rule.Bonus)
	return nil
}

func (s Pinned) ApplyInitiativeOut(ctx context.Context, campaignID string, totals map[string]any, tiebreak map[string]float64) ([]*core.Combatant, error) {
	var out []*core.Combatant
	err := s.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		current, err := tx.Combatants(campaignID)
		if err != nil {
			return nil, err
		}
		rolled := map[string]bool{}
		for _, c := range current {
			if v, ok := totals[c.ID]; ok {
				SetInitiative(c, v)
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
			order := s.TurnOrder(current)
			if len(order) > 0 {
				turns.SetTurn(game, order, 0)
				if err := tx.PutGame(campaignID, game); err != nil {
					return nil, err
				}
			}
		}
		return s.StoreCombat(tx, campaignID, changed)
	})
	return out, err
}

// settleTies reorders the ranks of combatants with equal initiative: the
// higher tie-break first, then the winner of a roll-off (1d20 each). It returns the
// combatants whose document or rank changed (the rolled ones always).
func (s Pinned) settleTies(all []*core.Combatant, tiebreak map[string]float64, rolled map[string]bool) []*core.Combatant {
	order := slices.Clone(all)
	rolloff := map[string]float64{}
	roller, _ := s.Roller.(core.TotalRoller)
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

// ChangeCombatant reads, changes and stores one combatant in one
// transaction, with the combat events.
func (s Pinned) ChangeCombatant(ctx context.Context, id string, change func(tx core.Tx, c *core.Combatant) error) (*core.Combatant, error) {
	var out *core.Combatant
	err := s.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := CombatantByID(tx, id)
		if err != nil {
			return nil, err
		}
		if err := change(tx, c); err != nil {
			return nil, err
		}
		out = c
		return s.StoreCombat(tx, c.Campaign, []*core.Combatant{c})
	})
	return out, err
}

// StoreCombat stores changed combatants and returns their events, then
// gameUpdated and the tokens they stand on. A change of initiative may move
// the acting combatant in the order: the game's turn follows it. A change
// players see nothing of in the lists (a foe's hit points) reaches them as
// the turn alone (gamelists.go).
func (s Pinned) StoreCombat(tx core.Tx, campaignID string, changed []*core.Combatant) ([]core.Event, error) {
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
		e, err := s.StoreCombatant(tx, c)
		if err != nil {
			return nil, err
		}
		events = append(events, e...)
	}
	if err := s.followActing(tx, campaignID); err != nil {
		return nil, err
	}
	game, err := s.GameEvents(tx, campaignID)
	if err != nil {
		return nil, err
	}
	turnIfListsAre(game, before)
	events = append(events, game...)
	tokens, err := s.LinkedTokenEvents(tx, changed)
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
func (s Pinned) orderedWith(stored, changed []*core.Combatant) []*core.Combatant {
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
func (s Pinned) followActing(tx core.Tx, campaignID string) error {
	game, err := tx.Game(campaignID)
	if err != nil || !game.Started {
		return err
	}
	combatants, err := tx.Combatants(campaignID)
	if err != nil {
		return err
	}
	order := s.TurnOrder(combatants)
	pos, found := turns.CurrentSlot(game, order)
	if !found || game.Turn == pos+1 {
		return nil
	}
	game.Turn = pos + 1
	return tx.PutGame(campaignID, game)
}

// GameEvents is gameUpdated for a campaign's game as it now stands.
func (s Pinned) GameEvents(tx core.Tx, campaignID string) ([]core.Event, error) {
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

// LinkedTokenEvents is tokenUpdated for the tokens of the combatants, with
// the fields derived from them (bloodied, dead...).
func (s Pinned) LinkedTokenEvents(tx core.Tx, combatants []*core.Combatant) ([]core.Event, error) {
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
		updated, err := s.TokenEvent(tx, t, t)
		if err != nil {
			return nil, err
		}
		events = append(events, updated)
	}
	return events, nil
}

func (s Pinned) TurnOrder(combatants []*core.Combatant) []core.TurnSlot {
	if s.TurnsPassed() {
		return turns.PassingOrder(combatants)
	}
	return turns.TurnOrder(combatants, s.ascending())
}

// ascending reports a system whose lowest initiative acts first.
func (s Pinned) ascending() bool {
	sorter, ok := s.Rules.(turns.InitiativeSorter)
	return ok && sorter.InitiativeAscending()
}
