package core

import "context"

// The installed content as a whole: the reads and the one write the
// importers (core/imports) need. Content is installed and removed in bulk
// (a module, a campaign, a map, a system), so clients are told to reload
// rather than sent an event per row.

// Modules lists the installed modules.
func (s *Service) Modules(ctx context.Context) ([]*Module, error) {
	var list []*Module
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		list, err = tx.Modules()
		return err
	})
	return list, err
}

// Module returns an installed module.
func (s *Service) Module(ctx context.Context, id string) (*Module, error) {
	var m *Module
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		m, err = tx.Module(id)
		if IsNotFound(err) {
			return NotFoundf("no module with id '%s'", Clip(id))
		}
		return err
	})
	return m, err
}

// Campaigns lists every campaign, of every system.
func (s *Service) Campaigns(ctx context.Context) ([]*Campaign, error) {
	var list []*Campaign
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		list, err = tx.Campaigns()
		return err
	})
	return list, err
}

// Campaign returns a campaign.
func (s *Service) Campaign(ctx context.Context, id string) (*Campaign, error) {
	var c *Campaign
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		c, err = tx.Campaign(id)
		if IsNotFound(err) {
			return NotFoundf("no campaign with id '%s'", Clip(id))
		}
		return err
	})
	return c, err
}

// PrimaryCampaignOf returns the primary campaign of a system, which need
// not be the loaded one.
func (s *Service) PrimaryCampaignOf(ctx context.Context, system string) (*Campaign, error) {
	var c *Campaign
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		c, err = tx.PrimaryCampaign(system)
		return err
	})
	return c, err
}

// AllMaps lists every map of every owner, each with its tokens.
func (s *Service) AllMaps(ctx context.Context) ([]*Map, error) {
	var list []*Map
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		list, err = tx.Maps("")
		return err
	})
	return list, err
}

// Map returns a map with its tokens, whole: as the game master sees it.
func (s *Service) Map(ctx context.Context, id string) (*Map, error) {
	var m *Map
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		m, err = mapByID(tx, id)
		return err
	})
	return m, err
}

// ChangeContent runs change in one transaction and, once it is committed,
// publishes reload with the data change returns (why, and what changed).
// Nil data publishes nothing: an importer taking back rows whose files
// could not be placed.
func (s *Service) ChangeContent(ctx context.Context, change func(tx Tx) (reload Object, err error)) error {
	return s.write(ctx, func(tx Tx) ([]Event, error) {
		reload, err := change(tx)
		if err != nil || reload == nil {
			return nil, err
		}
		return []Event{{Name: EventReload, Data: reload}}, nil
	})
}
