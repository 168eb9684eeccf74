package library

import (
	"cmp"
	"context"
	"slices"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/pages"
)

// Pages lists an owner's pages with their content (every owner's when
// owner is empty), in library order (rank, name, id).
func (s *LibraryRoom) Pages(ctx context.Context, owner string) ([]*core.Page, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) ([]*core.Page, error) { return tx.Pages(core.PageQuery{Owner: owner, Content: true}) })
}

// Encounters lists an owner's encounters (every owner's when empty).
func (s *LibraryRoom) Encounters(ctx context.Context, owner string) ([]*core.Encounter, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) ([]*core.Encounter, error) { return tx.Encounters(owner) })
}

// Groups lists an owner's groups (every owner's when empty).
func (s *LibraryRoom) Groups(ctx context.Context, owner string) ([]*core.Group, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) ([]*core.Group, error) { return tx.Groups(owner) })
}

// Assets lists an owner's assets (every owner's when empty).
func (s *LibraryRoom) Assets(ctx context.Context, owner string) ([]*core.Asset, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) ([]*core.Asset, error) { return tx.Assets(owner) })
}

// Page returns a page with its content.
func (s *LibraryRoom) Page(ctx context.Context, id string) (*core.Page, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) (*core.Page, error) { return pageByID(tx, id) })
}

// Encounter returns an encounter.
func (s *LibraryRoom) Encounter(ctx context.Context, id string) (*core.Encounter, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) (*core.Encounter, error) { return encounterByID(tx, id) })
}

func pageByID(tx core.Tx, id string) (*core.Page, error) {
	p, err := tx.Page(id)
	if core.IsNotFound(err) {
		return nil, core.NotFoundf("no page with id '%s'", core.Clip(id))
	}
	return p, err
}

func encounterByID(tx core.Tx, id string) (*core.Encounter, error) {
	e, err := tx.Encounter(id)
	if core.IsNotFound(err) {
		return nil, core.NotFoundf("no encounter with id '%s'", core.Clip(id))
	}
	return e, err
}

// Libraries lists the modules and campaigns of the loaded system (and
// those of no system) with how many pages, maps, encounters, groups and
// assets each holds.
func (s *LibraryRoom) Libraries(ctx context.Context) ([]core.LibrarySummary, error) {
	p := s.pin()
	return kernel.ReadStore(ctx, p.Store, func(tx core.Tx) ([]core.LibrarySummary, error) {
		system := ""
		if p.Rules != nil {
			system = p.Rules.SystemID()
		}
		var out []core.LibrarySummary
		count := func(sum *core.LibrarySummary) error {
			pages, err := tx.Pages(core.PageQuery{Owner: sum.ID})
			if err != nil {
				return err
			}
			maps, err := tx.Maps(sum.ID)
			if err != nil {
				return err
			}
			encounters, err := tx.Encounters(sum.ID)
			if err != nil {
				return err
			}
			groups, err := tx.Groups(sum.ID)
			if err != nil {
				return err
			}
			assets, err := tx.Assets(sum.ID)
			if err != nil {
				return err
			}
			sum.Pages, sum.Maps, sum.Encounters, sum.Groups, sum.Assets = len(pages), len(maps), len(encounters), len(groups), len(assets)
			out = append(out, *sum)
			return nil
		}
		modules, err := tx.Modules()
		if err != nil {
			return nil, err
		}
		for _, m := range modules {
			if m.System != "" && m.System != system {
				continue
			}
			if err := count(&core.LibrarySummary{ContentOwner: core.ContentOwner{Kind: core.OwnerModule, ID: m.ID, Name: m.Name, Slug: m.Slug}, Category: m.Category}); err != nil {
				return nil, err
			}
		}
		campaigns, err := tx.Campaigns()
		if err != nil {
			return nil, err
		}
		for _, c := range campaigns {
			if c.System != "" && c.System != system {
				continue
			}
			if err := count(&core.LibrarySummary{ContentOwner: core.ContentOwner{Kind: core.OwnerCampaign, ID: c.ID, Name: c.Name, Slug: c.Slug}, Primary: c.Primary}); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// Library returns the tree of a module or campaign: its groups, nested,
// each holding its pages, maps, encounters, assets and groups in rank
// order. What names a group that does not exist, or sits in a loop of
// groups, stands at the top level.
func (s *LibraryRoom) Library(ctx context.Context, ownerID string) (*core.Library, error) {
	p := s.pin()
	return kernel.ReadStore(ctx, p.Store, func(tx core.Tx) (*core.Library, error) {
		owner, err := pages.OwnerOf(tx, ownerID)
		if err != nil {
			return nil, err
		}
		shows, screenMap, err := p.PrimaryShows(tx)
		if err != nil {
			return nil, err
		}
		groups, err := tx.Groups(owner.ID)
		if err != nil {
			return nil, err
		}
		ownPages, err := tx.Pages(core.PageQuery{Owner: owner.ID})
		if err != nil {
			return nil, err
		}
		maps, err := tx.Maps(owner.ID)
		if err != nil {
			return nil, err
		}
		encounters, err := tx.Encounters(owner.ID)
		if err != nil {
			return nil, err
		}
		assets, err := tx.Assets(owner.ID)
		if err != nil {
			return nil, err
		}
		tables, err := tx.Tables(owner.ID)
		if err != nil {
			return nil, err
		}
		urls, err := pages.NewPageURLs(tx, owner)
		if err != nil {
			return nil, err
		}
		type placed struct {
			item   *core.LibraryItem
			parent string
		}
		var all []placed
		// What may hold others: groups, and pages (a legacy module's
		// sub-pages sit under their page).
		byGroup := map[string]*core.LibraryItem{}
		for _, g := range groups {
			it := &core.LibraryItem{Type: "group", ID: g.ID, Name: g.Name, Slug: g.Slug, Rank: g.Rank}
			byGroup[g.ID] = it
			all = append(all, placed{it, g.ParentID})
		}
		for _, pg := range ownPages {
			it := &core.LibraryItem{Type: "page", ID: pg.ID, Name: pg.Name, Slug: pg.Slug, Rank: pg.Rank, URL: urls.Of(pg)}
			it.Shown, it.Sections = pages.ShownState(shows, pg.ID)
			all = append(all, placed{it, pg.ParentID})
			byGroup[pg.ID] = it
		}
		for _, m := range maps {
			all = append(all, placed{&core.LibraryItem{Type: "map", ID: m.ID, Name: m.Name, Slug: m.Slug, Rank: m.Rank,
				Image: m.Image, OnScreen: m.ID == screenMap}, m.ParentID})
		}
		for _, e := range encounters {
			n := 0
			for _, c := range e.Combatants {
				n += max(c.Count, 1)
			}
			all = append(all, placed{&core.LibraryItem{Type: "encounter", ID: e.ID, Name: e.Name, Slug: e.Slug, Rank: e.Rank,
				Creatures: n, MapID: e.MapID}, e.ParentID})
		}
		for _, t := range tables {
			all = append(all, placed{&core.LibraryItem{Type: "table", ID: t.ID, Name: t.Name, Slug: t.Slug, Rank: t.Rank, URL: "/table/" + t.Slug}, t.ParentID})
		}
		for _, a := range assets {
			all = append(all, placed{&core.LibraryItem{Type: "asset", ID: a.ID, Name: a.Name, Slug: a.Slug, Rank: a.Rank, Image: a.Resource}, a.ParentID})
		}
		parents := map[string]string{}
		for _, g := range groups {
			parents[g.ID] = g.ParentID
		}
		for _, pg := range ownPages {
			parents[pg.ID] = pg.ParentID
		}
		lib := &core.Library{Owner: owner, Items: []*core.LibraryItem{}}
		for _, pl := range all {
			parent := byGroup[pl.parent]
			if parent == nil || parent == pl.item || ((pl.item.Type == "group" || pl.item.Type == "page") && inGroupLoop(parents, pl.item.ID)) {
				lib.Items = append(lib.Items, pl.item)
				continue
			}
			parent.Children = append(parent.Children, pl.item)
		}
		sortItems(lib.Items)
		return lib, nil
	})
}

// inGroupLoop reports whether following a group's parents comes back to it.
func inGroupLoop(parents map[string]string, id string) bool {
	seen := map[string]bool{}
	for at := parents[id]; at != ""; at = parents[at] {
		if at == id {
			return true
		}
		if seen[at] {
			return false // a loop above, not through id
		}
		seen[at] = true
	}
	return false
}

func sortItems(items []*core.LibraryItem) {
	slices.SortStableFunc(items, func(a, b *core.LibraryItem) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), compareFold(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
	})
	for _, it := range items {
		sortItems(it.Children)
	}
}

func compareFold(a, b string) int {
	return cmp.Compare(foldASCII(a), foldASCII(b))
}

func foldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
