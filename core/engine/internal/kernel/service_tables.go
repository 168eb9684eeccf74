package kernel

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
	"github.com/vttapp/companion/core/randomtables"
)

// TablesIn lists the tables the game master rolls on: the primary
// campaign's first, then the modules'.
func (s Pinned) TablesIn(tx core.Tx) ([]*core.Table, *core.Campaign, error) {
	c, err := s.PrimaryCampaign(tx)
	if err != nil {
		return nil, nil, err
	}
	all, err := tx.Tables("")
	if err != nil {
		return nil, nil, err
	}
	modules, err := tx.Modules()
	if err != nil {
		return nil, nil, err
	}
	isModule := map[string]bool{}
	for _, m := range modules {
		isModule[m.ID] = true
	}
	var own, library []*core.Table
	for _, t := range all {
		switch {
		case t.Owner == c.ID:
			own = append(own, t)
		case isModule[t.Owner]:
			library = append(library, t)
		}
	}
	return append(own, library...), c, nil
}

// FindTable finds a table by id, slug or name (the campaign's before the
// modules'); nil when none.
func FindTable(list []*core.Table, key string) *core.Table {
	key = strings.TrimSpace(key)
	slug := core.Slugify(key)
	for _, match := range []func(t *core.Table) bool{
		func(t *core.Table) bool { return t.ID == key },
		func(t *core.Table) bool { return t.Slug == key || slug != "" && t.Slug == slug },
		func(t *core.Table) bool { return chat.SameName(t.Name, key) },
	} {
		if i := slices.IndexFunc(list, match); i >= 0 {
			return list[i]
		}
	}
	return nil
}

// RollTable rolls on a table (by id, slug or name) and posts the result to
// the chat as a tableRoll message from the game master: private (the
// game master's alone) or for everyone. A noRepeat table's history is
// kept per campaign, in the same write.
func (s *Kernel) RollTable(ctx context.Context, key string, private bool) (*core.TableRolled, error) {
	p := s.Pin()
	if p.Roller == nil {
		return nil, core.Conflictf("this server has no dice roller")
	}
	var out *core.TableRolled
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		list, c, err := p.TablesIn(tx)
		if err != nil {
			return nil, err
		}
		t := FindTable(list, key)
		if t == nil {
			return nil, core.NotFoundf("no table '%s': name a table by its name, slug or id", core.Clip(key))
		}
		r := &randomtables.TableRoller{
			Dice: func(formula string) (int, error) {
				_, raws, _, err := p.Roller.RollText("/r " + formula)
				if err != nil {
					return 0, core.Invalidf("%s", err.Error())
				}
				rolls := RollResults(raws)
				if len(rolls) != 1 || rolls[0].Total == nil {
					return 0, core.Invalidf("table '%s': cannot roll %s: %s", core.Clip(t.Name), formula, FailedRoll(rolls))
				}
				return int(*rolls[0].Total), nil
			},
			Inline: func(text string) string {
				if stored, _, _, err := p.Roller.RollText(text); err == nil {
					return stored
				}
				return text
			},
			Find:    func(slug string) (*core.Table, error) { return FindTable(list, slug), nil },
			History: func(id string) ([]int, error) { return tx.TableHistory(c.ID, id) },
			Taken:   map[string][]int{},
		}
		roll, err := r.Roll(t, 0)
		if err != nil {
			return nil, err
		}
		for id, rows := range r.Taken {
			if err := tx.PutTableHistory(c.ID, id, rows); err != nil {
				return nil, err
			}
		}
		text, err := json.Marshal(roll)
		if err != nil {
			return nil, core.Internal(err)
		}
		m := &core.Message{ID: core.NewID(), Type: core.MessageTableRoll, Text: string(text), GM: true, Campaign: c.ID, Created: p.Now().UTC(), Private: private}
		if private {
			m.To = []string{chat.GMRecipient}
		}
		if err := core.CheckEncodedSize("message", m, core.MaxMessageBytes); err != nil {
			return nil, err
		}
		if err := tx.AddMessage(m); err != nil {
			return nil, err
		}
		out = &core.TableRolled{Message: m, Roll: roll}
		return []core.Event{chat.MessageEvent(m)}, nil
	})
	return out, err
}

// tableCommand reads "/table <name or slug>" (private, the default for
// tables) or "/table public <name>"; ok is false for any other text.
func tableCommand(text string) (key string, private, ok bool) {
	t := strings.TrimSpace(text)
	head, rest, _ := strings.Cut(t, " ")
	if !strings.EqualFold(head, "/table") {
		return "", false, false
	}
	rest = strings.TrimSpace(rest)
	if after, found := strings.CutPrefix(rest, "public "); found {
		return strings.TrimSpace(after), false, true
	}
	return rest, true, true
}
