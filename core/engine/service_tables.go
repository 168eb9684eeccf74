package engine

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/vttapp/companion/core/randomtables"

	"github.com/vttapp/companion/core/chat"

	"github.com/vttapp/companion/core/pages"

	"github.com/vttapp/companion/core"
)

// tablesIn lists the tables the game master rolls on: the primary
// campaign's first, then the modules'.
func (s pinned) tablesIn(tx core.Tx) ([]*core.Table, *core.Campaign, error) {
	c, err := s.primaryCampaign(tx)
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

// findTable finds a table by id, slug or name (the campaign's before the
// modules'); nil when none.
func findTable(list []*core.Table, key string) *core.Table {
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

// Tables lists the random tables of the primary campaign and the modules.
func (s *libraryRoom) Tables(ctx context.Context) ([]*core.Table, error) {
	p := s.pin()
	var out []*core.Table
	err := p.store.View(ctx, func(tx core.Tx) error {
		var err error
		out, _, err = p.tablesIn(tx)
		return err
	})
	if out == nil {
		out = []*core.Table{}
	}
	return out, err
}

// Table returns one table by id, slug or name.
func (s *libraryRoom) Table(ctx context.Context, key string) (*core.Table, error) {
	list, err := s.Tables(ctx)
	if err != nil {
		return nil, err
	}
	if t := findTable(list, key); t != nil {
		return t, nil
	}
	return nil, core.NotFoundf("no table '%s': name a table by its name, slug or id", core.Clip(key))
}

// PutTable stores a table (checked whole first: Table.Normalize) in owner,
// a module or campaign id; the primary campaign when owner is empty. A
// table with the id of a stored one replaces it; two tables of one owner
// never share a slug.
func (s *libraryRoom) PutTable(ctx context.Context, t *core.Table, owner string) (*core.Table, error) {
	if err := t.Normalize(); err != nil {
		return nil, err
	}
	p := s.pin()
	err := p.write(ctx, func(tx core.Tx) ([]core.Event, error) {
		if owner == "" {
			c, err := p.primaryCampaign(tx)
			if err != nil {
				return nil, err
			}
			owner = c.ID
		} else if _, err := pages.OwnerOf(tx, owner); err != nil {
			return nil, err
		}
		t.Owner = owner
		siblings, err := tx.Tables(owner)
		if err != nil {
			return nil, err
		}
		for _, o := range siblings {
			if o.ID != t.ID && o.Slug == t.Slug {
				return nil, core.Conflictf("a table '%s' of the same %s has the slug '%s' already: give this one another name or slug", core.Clip(o.Name), "owner", t.Slug)
			}
		}
		return nil, tx.PutTable(t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// RollTable rolls on a table (by id, slug or name) and posts the result to
// the chat as a tableRoll message from the game master: private (the
// game master's alone) or for everyone. A noRepeat table's history is
// kept per campaign, in the same write.
func (s *Kernel) RollTable(ctx context.Context, key string, private bool) (*core.TableRolled, error) {
	p := s.pin()
	if p.roller == nil {
		return nil, core.Conflictf("this server has no dice roller")
	}
	var out *core.TableRolled
	err := p.write(ctx, func(tx core.Tx) ([]core.Event, error) {
		list, c, err := p.tablesIn(tx)
		if err != nil {
			return nil, err
		}
		t := findTable(list, key)
		if t == nil {
			return nil, core.NotFoundf("no table '%s': name a table by its name, slug or id", core.Clip(key))
		}
		r := &randomtables.TableRoller{
			Dice: func(formula string) (int, error) {
				_, raws, _, err := p.roller.RollText("/r " + formula)
				if err != nil {
					return 0, core.Invalidf("%s", err.Error())
				}
				rolls := rollResults(raws)
				if len(rolls) != 1 || rolls[0].Total == nil {
					return 0, core.Invalidf("table '%s': cannot roll %s: %s", core.Clip(t.Name), formula, failedRoll(rolls))
				}
				return int(*rolls[0].Total), nil
			},
			Inline: func(text string) string {
				if stored, _, _, err := p.roller.RollText(text); err == nil {
					return stored
				}
				return text
			},
			Find:    func(slug string) (*core.Table, error) { return findTable(list, slug), nil },
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
		m := &core.Message{ID: core.NewID(), Type: core.MessageTableRoll, Text: string(text), GM: true, Campaign: c.ID, Created: p.now().UTC(), Private: private}
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
