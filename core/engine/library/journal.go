package library

import (
	"cmp"
	"context"
	"path"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
)

// journalEvent is journalUpdated for the campaign's entries as they now
// stand.
func (s libraryPinned) journalEvent(tx core.Tx, campaignID string) (core.Event, error) {
	all, err := tx.JournalEntries(campaignID)
	if err != nil {
		return core.Event{}, err
	}
	kernel.SortJournal(all)
	return core.Event{Name: core.EventJournalUpdated, Data: redact.Views{Players: kernel.PlayersJournal(all), Host: &core.Journal{Entries: all}}}, nil
}

// recordShown adds what was just shown to the campaign's journal, or
// moves the entry of the same thing to the end (and back, if it was
// taken back). It returns journalUpdated.
func (s libraryPinned) recordShown(tx core.Tx, campaignID string, e *core.JournalEntry) (core.Event, error) {
	all, err := tx.JournalEntries(campaignID)
	if err != nil {
		return core.Event{}, err
	}
	e.Campaign, e.Shown, e.Revoked = campaignID, s.Now().UTC(), false
	e.ID = core.NewID()
	for _, old := range all {
		if old.Same(e) {
			e.ID = old.ID
			break
		}
	}
	if err := tx.PutJournalEntry(e); err != nil {
		return core.Event{}, err
	}
	if len(all) >= core.MaxJournalEntries {
		// A long campaign's journal keeps its newest: the oldest leave.
		kernel.SortJournal(all)
		for _, old := range all[:len(all)-core.MaxJournalEntries+1] {
			if old.ID == e.ID {
				continue
			}
			if err := tx.DeleteJournalEntry(old.ID); err != nil {
				return core.Event{}, err
			}
		}
	}
	return s.journalEvent(tx, campaignID)
}

// pictureTitle names a picture by its file: "Old map" for
// /campaigns/x/old-map.png.
func pictureTitle(url string) string {
	base := path.Base(strings.SplitN(url, "?", 2)[0])
	base = strings.TrimSuffix(base, path.Ext(base))
	return cmp.Or(strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(base)), "Picture")
}

// handoutTitle names a text handout by its first line, without Markdown's
// heading marks.
func handoutTitle(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	line = strings.TrimSpace(strings.TrimLeft(line, "#>*_ "))
	if len(line) > 80 {
		line = core.Clip(line)
	}
	return cmp.Or(line, "Handout")
}

// RevokeJournal takes an entry back: it leaves players' journals (live:
// journalUpdated), and players can no longer open a page it recorded.
func (s *LibraryRoom) RevokeJournal(ctx context.Context, id string) (*core.JournalEntry, error) {
	p := s.pin()
	var out *core.JournalEntry
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		e, err := journalEntry(tx, c.ID, id)
		if err != nil {
			return nil, err
		}
		e.Revoked = true
		if err := tx.PutJournalEntry(e); err != nil {
			return nil, err
		}
		if e.Kind == core.JournalPage {
			if err := tx.DeletePageShows(c.ID, e.PageID); err != nil && !core.IsNotFound(err) {
				return nil, err
			}
		}
		out = e
		ev, err := p.journalEvent(tx, c.ID)
		return []core.Event{ev}, err
	})
	return out, err
}

// ShowJournal shows an entry again: a page (or section) as ShowPage does,
// a picture or a text handout on the player screen; it comes back to the
// end of players' journals.
func (s *LibraryRoom) ShowJournal(ctx context.Context, id string) (*core.JournalEntry, error) {
	var e *core.JournalEntry
	p := s.pin()
	err := p.Store.View(ctx, func(tx core.Tx) error {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return err
		}
		e, err = journalEntry(tx, c.ID, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	switch e.Kind {
	case core.JournalPage:
		_, err = s.ShowPage(ctx, e.PageID, core.ShowPage{Section: e.Section})
	case core.JournalImage:
		_, err = s.SetOverlay(ctx, core.ScreenOverlay{Image: &e.URL})
	default:
		empty := ""
		_, err = s.SetOverlay(ctx, core.ScreenOverlay{Image: &empty, Text: &e.Text})
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

// journalEntry finds one entry of the campaign's journal.
func journalEntry(tx core.Tx, campaignID, id string) (*core.JournalEntry, error) {
	all, err := tx.JournalEntries(campaignID)
	if err != nil {
		return nil, err
	}
	for _, e := range all {
		if e.ID == id {
			return e, nil
		}
	}
	return nil, core.NotFoundf("no journal entry '%s'", core.Clip(id))
}
