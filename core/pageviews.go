package core

import (
	"github.com/vttapp/companion/pagehtml"
)

// PageAddress is a page as a URL names it: /module/<owner>/page/<page>
// (Scope "module"), /campaign/<owner>/page/<page>, or /page/<page> (Scope
// "": any container). Owner and Page are each a slug or an id.
type PageAddress struct {
	Scope string
	Owner string
	Page  string
}

// PageView is a page rendered for one reader.
type PageView struct {
	Page  *Page        `json:"page"`
	Owner ContentOwner `json:"owner"`
	URL   string       `json:"url"`
	// HTML is the body as the reader may read it: the whole page, or for
	// players only the sections shown to them; links lead where the reader
	// may go. For the game master, links to library content carry
	// data-link (page, map, encounter, group, asset, other) and data-id.
	HTML string `json:"html"`
	// Sections are the page's sections (every one for the game master,
	// the shown ones for players).
	Sections []pagehtml.Section `json:"sections"`
	// Shown is what players may read of the page: "page", "sections"
	// (ShownSections), or "" (nothing).
	Shown         string   `json:"shown"`
	ShownSections []string `json:"shownSections,omitempty"`
	// Maps and Encounters are those the page leads to (the game master's
	// view only): see related.
	Maps       []LibraryRef `json:"maps"`
	Encounters []LibraryRef `json:"encounters"`
	// Title is the document's title: the page's name.
	Title string `json:"-"`
}

// ShowPage is what the game master shows players of a page: Section, a
// section's id ("" for the whole page), and whether to put it on the
// player screen as a handout (Overlay, true when absent).
type ShowPage struct {
	Section string `json:"section"`
	Overlay *bool  `json:"overlay"`
}

// PageShown is the answer to a show or hide: the page as players may now
// read it, and the player screen when the handout changed it.
type PageShown struct {
	URL           string   `json:"url"`
	Shown         string   `json:"shown"`
	ShownSections []string `json:"shownSections,omitempty"`
	Screen        *Screen  `json:"screen,omitempty"`
}

// LibraryRef names a map or encounter a page leads to.
type LibraryRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}
