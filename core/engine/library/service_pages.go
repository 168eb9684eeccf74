package library

import (
	"context"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/pages"
)

// PageAt renders the page a URL names for the game master: every page,
// whole.
func (s *LibraryRoom) PageAt(ctx context.Context, a core.PageAddress) (*core.PageView, error) {
	return s.pin().PageAt(ctx, a, false)
}

// PageView renders a page, by id, for the game master.
func (s *LibraryRoom) PageView(ctx context.Context, id string) (*core.PageView, error) {
	p := s.pin()
	return kernel.ReadStore(ctx, p.Store, func(tx core.Tx) (*core.PageView, error) {
		page, err := pageByID(tx, id)
		if err != nil {
			return nil, err
		}
		shows, _, err := p.PrimaryShows(tx)
		if err != nil {
			return nil, err
		}
		return pages.NewReader(tx, false, shows).View(page)
	})
}

// ShowPage lets players read a page of any module or campaign (the whole
// of it, or one section) from now on, in the primary campaign, and unless
// told otherwise puts what was shown on the player screen as a text
// handout (the overlay: Markdown with a link to the page). One
// transaction; clients get screenUpdated when the overlay changes, and
// nothing else: a page players may read is not broadcast.
func (s *LibraryRoom) ShowPage(ctx context.Context, pageID string, show core.ShowPage) (*core.PageShown, error) {
	p := s.pin()
	overlay := show.Overlay == nil || *show.Overlay
	var out *core.PageShown
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		page, err := pageByID(tx, pageID)
		if err != nil {
			return nil, err
		}
		doc := page.Doc()
		if show.Section != "" && !doc.HasSection(show.Section) {
			return nil, core.NotFoundf("page '%s' has no section '%s'", core.Clip(page.Name), core.Clip(show.Section))
		}
		if err := tx.AddPageShow(c.ID, page.ID, show.Section); err != nil {
			return nil, err
		}
		shows, err := tx.PageShows(c.ID)
		if err != nil {
			return nil, err
		}
		r := pages.NewReader(tx, true, shows)
		u, err := r.UrlOf(page)
		if err != nil {
			return nil, err
		}
		out = &core.PageShown{URL: u}
		out.Shown, out.ShownSections = pages.ShownState(shows, page.ID)
		entry := &core.JournalEntry{Kind: core.JournalPage, Title: page.Name, URL: u, PageID: page.ID, Section: show.Section}
		if show.Section != "" {
			entry.URL += "#" + show.Section
			for _, sec := range doc.Sections() {
				if sec.ID == show.Section {
					entry.Title += " — " + sec.Title
				}
			}
		}
		journal, err := p.recordShown(tx, c.ID, entry)
		if err != nil {
			return nil, err
		}
		if !overlay {
			return []core.Event{journal}, nil
		}
		text, err := r.Handout(page, show.Section, u)
		if err != nil {
			return nil, err
		}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		screen.OverlayImage, screen.OverlayHandoutText, screen.OverlayType = "", text, core.OverlayHandout
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.LiveScreen(screen)
		out.Screen = screen
		return []core.Event{journal, {Name: core.EventScreenUpdated, Data: screen}}, nil
	})
	return out, err
}

// HidePage takes back what players were shown of a page: they can no
// longer open it, and a handout of it on the player screen is taken down
// (screenUpdated).
func (s *LibraryRoom) HidePage(ctx context.Context, pageID string) (*core.PageShown, error) {
	p := s.pin()
	var out *core.PageShown
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		page, err := pageByID(tx, pageID)
		if err != nil {
			return nil, err
		}
		if err := tx.DeletePageShows(c.ID, page.ID); err != nil {
			return nil, err
		}
		// Its entries leave players' journals: they can no longer open it.
		entries, err := tx.JournalEntries(c.ID)
		if err != nil {
			return nil, err
		}
		var events []core.Event
		revoked := false
		for _, e := range entries {
			if e.Kind == core.JournalPage && e.PageID == page.ID && !e.Revoked {
				e.Revoked, revoked = true, true
				if err := tx.PutJournalEntry(e); err != nil {
					return nil, err
				}
			}
		}
		if revoked {
			ev, err := p.journalEvent(tx, c.ID)
			if err != nil {
				return nil, err
			}
			events = []core.Event{ev}
		}
		u, err := pages.NewReader(tx, true, nil).UrlOf(page)
		if err != nil {
			return nil, err
		}
		out = &core.PageShown{URL: u}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		if screen.OverlayType != core.OverlayHandout || !strings.Contains(screen.OverlayHandoutText, "]("+u) {
			return events, nil
		}
		screen.OverlayHandoutText, screen.OverlayType = "", ""
		if screen.OverlayImage != "" {
			screen.OverlayType = core.OverlayImage
		}
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.LiveScreen(screen)
		out.Screen = screen
		return append(events, core.Event{Name: core.EventScreenUpdated, Data: screen}), nil
	})
	return out, err
}

// ShowPageMap puts a page's map on the player screen (ShowMap): the one
// named, which must be one of the page's maps (PageView.Maps), or the
// first of them.
func (s *LibraryRoom) ShowPageMap(ctx context.Context, pageID, mapID string) (*core.Screen, error) {
	v, err := s.PageView(ctx, pageID)
	if err != nil {
		return nil, err
	}
	if len(v.Maps) == 0 {
		return nil, core.Conflictf("page '%s' leads to no map: no link, marker or group of its names one", core.Clip(v.Page.Name))
	}
	chosen := v.Maps[0].ID
	if mapID != "" {
		chosen = ""
		for _, m := range v.Maps {
			if m.ID == mapID {
				chosen = m.ID
			}
		}
		if chosen == "" {
			return nil, core.NotFoundf("page '%s' does not lead to map '%s'", core.Clip(v.Page.Name), core.Clip(mapID))
		}
	}
	return s.ShowMap(ctx, chosen)
}
