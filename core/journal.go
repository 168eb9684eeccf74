package core

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strings"
	"time"
)

// The handout journal: every page, section, picture and text handout the
// game master shows players is kept, in the order it was shown, so that
// players read it again after it left the screen (GET /api/me/journal,
// the client's Journal tab). Showing the same thing again moves it to
// the end. The game master takes an entry back (revoked: it leaves
// players' journals live, and a page of it can no longer be opened) and
// shows one again (it comes back, on the player screen too). Everything
// shown is shown to everyone at the table, so every player's journal is
// the same: this server has no handout for one seat alone.

// Journal entry kinds.
const (
	JournalPage    = "page"    // a page or one of its sections
	JournalImage   = "image"   // a picture on the player screen
	JournalHandout = "handout" // a text handout on the player screen
)

// JournalEntry is one thing shown to players.
type JournalEntry struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	// URL is a page's address (with #section for a section) or a
	// picture's path.
	URL     string `json:"url,omitempty"`
	PageID  string `json:"pageId,omitempty"`
	Section string `json:"section,omitempty"`
	// Text is a text handout's words (Markdown).
	Text  string    `json:"text,omitempty"`
	Shown time.Time `json:"shown"`
	// Revoked: the game master took it back; players no longer have it.
	Revoked bool `json:"revoked,omitempty"`

	Campaign string `json:"-"`
}

// Journal is a journal as a reader has it, oldest first.
type Journal struct {
	Entries []*JournalEntry `json:"entries"`
}

// same reports whether two entries record the showing of the same thing.
func (e *JournalEntry) same(o *JournalEntry) bool {
	if e.Kind != o.Kind {
		return false
	}
	switch e.Kind {
	case JournalPage:
		return e.PageID == o.PageID && e.Section == o.Section
	case JournalImage:
		return e.URL == o.URL
	}
	return e.Text == o.Text
}

// playersJournal is the journal players read: the entries not revoked.
func playersJournal(all []*JournalEntry) *Journal {
	out := &Journal{Entries: []*JournalEntry{}}
	for _, e := range all {
		if !e.Revoked {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}

// sortJournal orders entries by when they were last shown.
func sortJournal(list []*JournalEntry) {
	slices.SortStableFunc(list, func(a, b *JournalEntry) int { return a.Shown.Compare(b.Shown) })
}

// journalEvent is journalUpdated for the campaign's entries as they now
// stand.
func (s pinned) journalEvent(tx Tx, campaignID string) (Event, error) {
	all, err := tx.JournalEntries(campaignID)
	if err != nil {
		return Event{}, err
	}
	sortJournal(all)
	return Event{Name: EventJournalUpdated, Data: Views{Players: playersJournal(all), Host: &Journal{Entries: all}}}, nil
}

// recordShown adds what was just shown to the campaign's journal, or
// moves the entry of the same thing to the end (and back, if it was
// taken back). It returns journalUpdated.
func (s pinned) recordShown(tx Tx, campaignID string, e *JournalEntry) (Event, error) {
	all, err := tx.JournalEntries(campaignID)
	if err != nil {
		return Event{}, err
	}
	e.Campaign, e.Shown, e.Revoked = campaignID, s.now().UTC(), false
	e.ID = NewID()
	for _, old := range all {
		if old.same(e) {
			e.ID = old.ID
			break
		}
	}
	if err := tx.PutJournalEntry(e); err != nil {
		return Event{}, err
	}
	if len(all) >= MaxJournalEntries {
		// A long campaign's journal keeps its newest: the oldest leave.
		sortJournal(all)
		for _, old := range all[:len(all)-MaxJournalEntries+1] {
			if old.ID == e.ID {
				continue
			}
			if err := tx.DeleteJournalEntry(old.ID); err != nil {
				return Event{}, err
			}
		}
	}
	return s.journalEvent(tx, campaignID)
}

// MaxJournalEntries bounds a campaign's journal (docs/limits.md): past it
// the entry shown longest ago leaves.
const MaxJournalEntries = 500

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
		line = Clip(line)
	}
	return cmp.Or(line, "Handout")
}

// HostJournal is every entry of the primary campaign's journal, the
// revoked ones included: the host console's.
func (s *Service) HostJournal(ctx context.Context) (*Journal, error) {
	p := s.pin()
	out := &Journal{}
	err := p.store.View(ctx, func(tx Tx) error {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return err
		}
		out.Entries, err = tx.JournalEntries(c.ID)
		return err
	})
	if out.Entries == nil {
		out.Entries = []*JournalEntry{}
	}
	sortJournal(out.Entries)
	return out, err
}

// Journal is GET /api/me/journal: what was shown to the table, oldest
// first, the entries the game master took back left out.
func (p PlayerAccess) Journal(ctx context.Context) (*Journal, error) {
	all, err := p.s.HostJournal(ctx)
	if err != nil {
		return nil, err
	}
	return playersJournal(all.Entries), nil
}

// RevokeJournal takes an entry back: it leaves players' journals (live:
// journalUpdated), and players can no longer open a page it recorded.
func (s *Service) RevokeJournal(ctx context.Context, id string) (*JournalEntry, error) {
	p := s.pin()
	var out *JournalEntry
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
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
		if e.Kind == JournalPage {
			if err := tx.DeletePageShows(c.ID, e.PageID); err != nil && !IsNotFound(err) {
				return nil, err
			}
		}
		out = e
		ev, err := p.journalEvent(tx, c.ID)
		return []Event{ev}, err
	})
	return out, err
}

// ShowJournal shows an entry again: a page (or section) as ShowPage does,
// a picture or a text handout on the player screen; it comes back to the
// end of players' journals.
func (s *Service) ShowJournal(ctx context.Context, id string) (*JournalEntry, error) {
	var e *JournalEntry
	p := s.pin()
	err := p.store.View(ctx, func(tx Tx) error {
		c, err := p.primaryCampaign(tx)
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
	case JournalPage:
		_, err = s.ShowPage(ctx, e.PageID, ShowPage{Section: e.Section})
	case JournalImage:
		_, err = s.SetOverlay(ctx, ScreenOverlay{Image: &e.URL})
	default:
		empty := ""
		_, err = s.SetOverlay(ctx, ScreenOverlay{Image: &empty, Text: &e.Text})
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

// journalEntry finds one entry of the campaign's journal.
func journalEntry(tx Tx, campaignID, id string) (*JournalEntry, error) {
	all, err := tx.JournalEntries(campaignID)
	if err != nil {
		return nil, err
	}
	for _, e := range all {
		if e.ID == id {
			return e, nil
		}
	}
	return nil, NotFoundf("no journal entry '%s'", Clip(id))
}
