package library

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/pages"
)

// Tables lists the random tables of the primary campaign and the modules.
func (s *LibraryRoom) Tables(ctx context.Context) ([]*core.Table, error) {
	p := s.pin()
	var out []*core.Table
	err := p.Store.View(ctx, func(tx core.Tx) error {
		var err error
		out, _, err = p.TablesIn(tx)
		return err
	})
	if out == nil {
		out = []*core.Table{}
	}
	return out, err
}

// Table returns one table by id, slug or name.
func (s *LibraryRoom) Table(ctx context.Context, key string) (*core.Table, error) {
	list, err := s.Tables(ctx)
	if err != nil {
		return nil, err
	}
	if t := kernel.FindTable(list, key); t != nil {
		return t, nil
	}
	return nil, core.NotFoundf("no table '%s': name a table by its name, slug or id", core.Clip(key))
}

// PutTable stores a table (checked whole first: Table.Normalize) in owner,
// a module or campaign id; the primary campaign when owner is empty. A
// table with the id of a stored one replaces it; two tables of one owner
// never share a slug.
func (s *LibraryRoom) PutTable(ctx context.Context, t *core.Table, owner string) (*core.Table, error) {
	if err := t.Normalize(); err != nil {
		return nil, err
	}
	p := s.pin()
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		if owner == "" {
			c, err := p.PrimaryCampaign(tx)
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
