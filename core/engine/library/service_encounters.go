package library

import (
	"context"
	"strconv"
	"strings"
	"unicode"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// creatureToPlace is one token (and combatant) an encounter makes.
type creatureToPlace struct {
	entity *core.Entity
	tpl    *core.TokenTemplate
	rule   *core.InitiativeRule
	name   string
	label  string
	role   string
	hidden bool
	ref    string
	x, y   float64
}

// RunEncounter places an encounter's creatures on a map and adds them to
// the primary campaign's combat, in one transaction with one set of
// events: combatantUpdated for each combatant, tokenUpdated for each token
// (already linked to its combatant), then gameUpdated. Tokens stand where
// the encounter places them, or on free cells around the given point (the
// map's centre without one), and are hidden when asked (or when their
// entry says so). A creature whose entity is not installed still comes,
// named after its entry, and is listed in Missing.
func (s *LibraryRoom) RunEncounter(ctx context.Context, encounterID string, run core.RunEncounter) (*core.EncounterRun, error) {
	p := s.pin()
	if (run.X == nil) != (run.Y == nil) {
		return nil, core.Invalidf("give both 'x' and 'y', or neither")
	}
	if run.X != nil && !kernel.Finite(*run.X, *run.Y) {
		return nil, core.Invalidf("'x' and 'y' must be finite numbers")
	}
	combat := run.Combat == nil || *run.Combat
	enc, err := s.Encounter(ctx, encounterID)
	if err != nil {
		return nil, err
	}
	mapID := run.MapID
	if mapID == "" {
		mapID = enc.MapID
	}
	if mapID == "" {
		if mapID, err = s.ScreenMapID(ctx); err != nil {
			return nil, core.Conflictf("the encounter names no map and none is on the player screen: give 'mapId'")
		}
	}
	m, err := s.Map(ctx, mapID)
	if err != nil {
		return nil, err
	}
	out := &core.EncounterRun{MapID: m.ID, Tokens: []*core.Token{}, Combatants: []*core.Combatant{}}

	// Outside the write lock: entities, and the system's token and
	// initiative hooks (Lua), once per entity.
	var places []*creatureToPlace
	templates := map[string]*core.TokenTemplate{}
	rules := map[string]*core.InitiativeRule{}
	largest := 1.0
	for _, c := range enc.Combatants {
		e, err := p.encounterEntity(ctx, c)
		if err != nil {
			return nil, err
		}
		if e == nil && c.Reference != "" && !containsString(out.Missing, c.Reference) {
			out.Missing = append(out.Missing, c.Reference)
		}
		var tpl *core.TokenTemplate
		var rule *core.InitiativeRule
		if e != nil {
			if tpl = templates[e.ID]; tpl == nil {
				if tr, ok := p.Rules.(core.TokenRules); ok {
					if tpl, err = tr.TokenFor(ctx, e); err != nil {
						return nil, err
					}
				}
				if tpl == nil {
					tpl = &core.TokenTemplate{}
				}
				templates[e.ID] = tpl
			}
			if rule = rules[e.ID]; rule == nil {
				if rule, err = p.InitiativeRule(ctx, e); err != nil {
					return nil, err
				}
				rules[e.ID] = rule
			}
		} else {
			tpl = &core.TokenTemplate{}
			if rule, err = p.InitiativeRule(ctx, nil); err != nil {
				return nil, err
			}
		}
		largest = max(largest, tpl.Width, tpl.Height)
		for i := 0; i < max(c.Count, 1); i++ {
			places = append(places, &creatureToPlace{entity: e, tpl: tpl, rule: rule, name: creatureName(c, e),
				label: creatureLabel(c.Label, i, max(c.Count, 1)), role: c.Role, hidden: run.Hidden || c.Hidden, ref: c.Reference})
		}
	}
	if len(places) == 0 {
		return nil, core.Invalidf("encounter '%s' has no creatures", core.Clip(enc.Name))
	}
	// Where each stands.
	layout := newCellLayout(m, largest)
	point := func() (float64, float64) {
		switch {
		case run.X != nil:
			return *run.X, *run.Y
		case m.Width > 0 && m.Height > 0:
			return float64(m.Width) / 2, float64(m.Height) / 2
		}
		return float64(m.GridSize) * 5, float64(m.GridSize) * 5
	}
	k := 0
	for _, c := range enc.Combatants {
		for i := 0; i < max(c.Count, 1); i++ {
			pl := places[k]
			k++
			switch {
			case run.X == nil && c.Placed() && i == 0:
				pl.x, pl.y = *c.X, *c.Y
				layout.take(pl.x, pl.y)
			case run.X == nil && c.Placed():
				pl.x, pl.y = layout.near(*c.X, *c.Y)
			default:
				pl.x, pl.y = layout.near(point())
			}
		}
	}

	err = p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		if _, err := kernel.MapByID(tx, m.ID); err != nil {
			return nil, err
		}
		var tokens []*core.Token
		for _, pl := range places {
			t := pl.token(m.ID)
			t.Normalize()
			if err := core.CheckEncodedSize("token", t, core.MaxTokenBytes); err != nil {
				return nil, err
			}
			tokens = append(tokens, t)
		}
		if !run.Again {
			onMap, err := tx.Tokens(m.ID)
			if err != nil {
				return nil, err
			}
			if alreadyPlaced(tokens, onMap) {
				return nil, core.Conflictf("encounter '%s' is already on map '%s': its %d creatures stand there; give \"again\": true to add them once more", core.Clip(enc.Name), core.Clip(m.Name), len(tokens))
			}
		}
		for _, t := range tokens {
			if err := tx.PutToken(t); err != nil {
				return nil, err
			}
		}
		out.Tokens = tokens
		var events []core.Event
		var campaignID string
		if combat {
			camp, err := p.PrimaryCampaign(tx)
			if err != nil {
				return nil, err
			}
			campaignID = camp.ID
			existing, err := tx.Combatants(camp.ID)
			if err != nil {
				return nil, err
			}
			rank := 0
			for _, c := range existing {
				rank = max(rank, c.Rank)
			}
			for i, pl := range places {
				c := pl.combatant(p.Pinned, tokens[i])
				if shared := kernel.SharedCombatant(existing, c, p.Rules); shared != nil {
					shared.TokenID = c.TokenID
					c = shared
				} else {
					rank++
					c.Campaign, c.Rank = camp.ID, rank
					if pl.rule != nil && kernel.AutoRolls(pl.rule.AutoRoll, c.Role) {
						if err := p.RollOne(c, pl.rule); err != nil {
							return nil, err
						}
					}
				}
				stored, err := p.StoreCombatant(tx, c)
				if err != nil {
					return nil, err
				}
				events = append(events, stored...)
				out.Combatants = append(out.Combatants, c)
			}
		}
		for _, t := range tokens {
			ev, err := p.TokenEvent(tx, t, nil)
			if err != nil {
				return nil, err
			}
			events = append(events, ev)
		}
		if combat {
			game, err := p.GameEvents(tx, campaignID)
			if err != nil {
				return nil, err
			}
			events = append(events, game...)
		}
		return events, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// encounterEntity finds an entry's entity: by id, else by its reference;
// nil when none is installed (links are soft).
func (s libraryPinned) encounterEntity(ctx context.Context, c core.EncounterCreature) (*core.Entity, error) {
	if c.EntityID != "" {
		e, err := s.Entity(ctx, "", c.EntityID)
		if err == nil || !core.IsNotFound(err) {
			return e, err
		}
	}
	if c.Reference == "" {
		return nil, nil
	}
	kind, slug, ok := core.SplitReference(c.Reference)
	if !ok {
		return nil, nil
	}
	e, err := s.EntityByReference(ctx, kind, slug)
	if core.IsNotFound(err) {
		return nil, nil
	}
	return e, err
}

func (pl *creatureToPlace) token(mapID string) *core.Token {
	var t *core.Token
	if pl.entity != nil {
		t = kernel.TokenFromTemplate(pl.entity, pl.tpl, core.PlaceToken{X: pl.x, Y: pl.y, Hidden: pl.hidden})
	} else {
		t = &core.Token{ID: core.NewID(), X: pl.x, Y: pl.y, Hidden: pl.hidden, Reference: pl.ref}
	}
	t.MapID = mapID
	t.Name = pl.name
	if pl.label != "" {
		t.Label = pl.label
	}
	if pl.role != "" {
		t.Role = pl.role
	}
	if t.Role == "" {
		t.Role = core.RoleHostile
	}
	return t
}

func (pl *creatureToPlace) combatant(p kernel.Pinned, t *core.Token) *core.Combatant {
	id := t.ID
	c := &core.Combatant{Name: t.Name, Label: t.Label, Hidden: t.Hidden, Role: t.Role, TokenID: &id,
		Image: t.Image, Reference: t.Reference, Player: t.Player}
	if pl.entity != nil {
		p.FromEntity(c, pl.entity, false)
		if pl.role != "" {
			c.Role = pl.role // the entry's side wins over the entity's
		}
	}
	return c
}

// creatureName is the entry's name, else its entity's, else one made from
// its reference.
func creatureName(c core.EncounterCreature, e *core.Entity) string {
	switch {
	case strings.TrimSpace(c.Name) != "":
		return c.Name
	case e != nil:
		return e.Name
	}
	return core.NameFromReference(c.Reference)
}

// creatureLabel numbers the creatures of one entry: "G" for three goblins
// labels them G1, G2, G3; a label that already ends in a digit stays for
// the first and the others go on from it.
func creatureLabel(label string, i, count int) string {
	if label == "" || count == 1 {
		return label
	}
	head := strings.TrimRightFunc(label, unicode.IsDigit)
	n := 1
	if head != label {
		n, _ = strconv.Atoi(label[len(head):])
	}
	return head + strconv.Itoa(n+i)
}

// alreadyPlaced reports whether every token a run would place already has
// one of the same name and label on the map: the encounter was run there
// before and its creatures still stand there. One of them defeated and
// removed, or renamed, makes the run a new one.
func alreadyPlaced(tokens, onMap []*core.Token) bool {
	type key struct{ name, label string }
	standing := map[key]int{}
	for _, t := range onMap {
		standing[key{t.Name, t.Label}]++
	}
	for _, t := range tokens {
		k := key{t.Name, t.Label}
		if standing[k] == 0 {
			return false
		}
		standing[k]--
	}
	return len(tokens) > 0
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
