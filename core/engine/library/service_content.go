package library

import (
	"context"
	"errors"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// The installed content as a whole: the reads and the one write the
// importers (package imports) need. Content is installed and removed in bulk
// (a module, a campaign, a map, a system), so clients are told to reload
// rather than sent an event per row.

// Modules lists the installed modules.
func (s *LibraryRoom) Modules(ctx context.Context) ([]*core.Module, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) ([]*core.Module, error) { return tx.Modules() })
}

// Module returns an installed module.
func (s *LibraryRoom) Module(ctx context.Context, id string) (*core.Module, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) (*core.Module, error) {
		m, err := tx.Module(id)
		if core.IsNotFound(err) {
			return nil, core.NotFoundf("no module with id '%s'", core.Clip(id))
		}
		return m, err
	})
}

// Campaigns lists every campaign, of every system.
func (s *LibraryRoom) Campaigns(ctx context.Context) ([]*core.Campaign, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) ([]*core.Campaign, error) { return tx.Campaigns() })
}

// Campaign returns a campaign.
func (s *LibraryRoom) Campaign(ctx context.Context, id string) (*core.Campaign, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) (*core.Campaign, error) {
		c, err := tx.Campaign(id)
		if core.IsNotFound(err) {
			return nil, core.NotFoundf("no campaign with id '%s'", core.Clip(id))
		}
		return c, err
	})
}

// PrimaryCampaignOf returns the primary campaign of a system, which need
// not be the loaded one.
func (s *LibraryRoom) PrimaryCampaignOf(ctx context.Context, system string) (*core.Campaign, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) (*core.Campaign, error) { return tx.PrimaryCampaign(system) })
}

// AllMaps lists every map of every owner, each with its tokens.
func (s *LibraryRoom) AllMaps(ctx context.Context) ([]*core.Map, error) {
	return kernel.ReadStore(ctx, s.Store, func(tx core.Tx) ([]*core.Map, error) { return tx.Maps("") })
}

// ReadContent runs fn in one read transaction: a consistent picture of
// the installed content, for an export that reads a module or campaign
// whole. fn must only read.
func (s *LibraryRoom) ReadContent(ctx context.Context, fn func(tx core.Tx) error) error {
	return s.Store.View(ctx, fn)
}

// ChangeContent runs change in one transaction and, once it is committed,
// publishes reload with the data change returns (why, and what changed).
// Nil data publishes nothing: an importer taking back rows whose files
// could not be placed.
func (s *LibraryRoom) ChangeContent(ctx context.Context, change func(tx core.Tx) (reload core.Object, err error)) error {
	return s.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		reload, err := change(tx)
		if err != nil || reload == nil {
			return nil, err
		}
		return []core.Event{{Name: core.EventReload, Data: reload}}, nil
	})
}

// StageEntities keeps entities an import makes under stage, in one
// transaction, where nothing reads them and nobody is told (Tx.StageEntity):
// an import of a large compendium writes them in batches while it reads
// its file, so that it never holds them all, and adopts them all in the
// one transaction that installs it (Tx.AdoptStaged, through
// ChangeContent).
func (s *LibraryRoom) StageEntities(ctx context.Context, stage string, list []*core.Entity) error {
	if stage == "" {
		return core.Internal(errors.New("stage entities: no stage named"))
	}
	return s.Store.Update(ctx, func(tx core.Tx) error {
		for _, e := range list {
			if err := tx.StageEntity(stage, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// DropStaged forgets what an import staged (every stage when stage is
// empty: what an interrupted import left behind, at start-up).
func (s *LibraryRoom) DropStaged(ctx context.Context, stage string) error {
	return s.Store.Update(ctx, func(tx core.Tx) error { return tx.DropStaged(stage) })
}
