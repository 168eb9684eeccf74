package core

import (
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

// Same reports whether two entries record the showing of the same thing.
func (e *JournalEntry) Same(o *JournalEntry) bool {
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

// MaxJournalEntries bounds a campaign's journal (docs/limits.md): past it
// the entry shown longest ago leaves.
const MaxJournalEntries = 500
