package core

import (
	"context"
	"strings"

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

// PageAt renders the page a URL names for the game master: every page,
// whole.
func (s *Service) PageAt(ctx context.Context, a PageAddress) (*PageView, error) {
	return s.pin().pageAt(ctx, a, false)
}

// PageAt renders the page a URL names as players may read it: only a page
// the game master showed them (in the primary campaign), and of it only
// what was shown. Any other page does not exist for them.
func (p PlayerAccess) PageAt(ctx context.Context, a PageAddress) (*PageView, error) {
	return p.s.pin().pageAt(ctx, a, true)
}

// PageView renders a page, by id, for the game master.
func (s *Service) PageView(ctx context.Context, id string) (*PageView, error) {
	p := s.pin()
	return readStore(ctx, p.store, func(tx Tx) (*PageView, error) {
		page, err := pageByID(tx, id)
		if err != nil {
			return nil, err
		}
		shows, _, err := p.primaryShows(tx)
		if err != nil {
			return nil, err
		}
		return newReader(tx, false, shows).view(page)
	})
}

func (s pinned) pageAt(ctx context.Context, a PageAddress, players bool) (*PageView, error) {
	return readStore(ctx, s.store, func(tx Tx) (*PageView, error) {
		if a.Page == "" || (a.Scope != "" && a.Scope != OwnerModule && a.Scope != OwnerCampaign) {
			return nil, NotFoundf("no such page")
		}
		shows, _, err := s.primaryShows(tx)
		if err != nil {
			return nil, err
		}
		r := newReader(tx, players, shows)
		pages, err := r.findPages(a.Scope, a.Owner, a.Page, "")
		if err != nil {
			return nil, err
		}
		page, err := r.firstReadable(pages)
		if err != nil {
			return nil, err
		}
		if page == nil {
			return nil, NotFoundf("no page '%s'", Clip(a.Page))
		}
		return r.view(page)
	})
}

// view renders a page for the reader.
func (r *reader) view(page *Page) (*PageView, error) {
	owner, err := r.owner(page.Owner)
	if err != nil {
		return nil, err
	}
	u, err := r.urlOf(page)
	if err != nil {
		return nil, err
	}
	doc, err := r.render(page)
	if err != nil {
		return nil, err
	}
	v := &PageView{Page: page, Owner: owner, URL: u, HTML: doc.HTML(), Sections: doc.Sections(), Title: page.Name}
	if v.Sections == nil {
		v.Sections = []pagehtml.Section{}
	}
	v.Shown, v.ShownSections = shownState(r.shows, page.ID)
	if r.players {
		v.Page = &Page{ID: page.ID, Name: page.Name, Slug: page.Slug}
		return v, nil
	}
	return v, r.related(page, v)
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

// ShowPage lets players read a page of any module or campaign (the whole
// of it, or one section) from now on, in the primary campaign, and unless
// told otherwise puts what was shown on the player screen as a text
// handout (the overlay: Markdown with a link to the page). One
// transaction; clients get screenUpdated when the overlay changes, and
// nothing else: a page players may read is not broadcast.
func (s *Service) ShowPage(ctx context.Context, pageID string, show ShowPage) (*PageShown, error) {
	p := s.pin()
	overlay := show.Overlay == nil || *show.Overlay
	var out *PageShown
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		page, err := pageByID(tx, pageID)
		if err != nil {
			return nil, err
		}
		doc := page.Doc()
		if show.Section != "" && !doc.HasSection(show.Section) {
			return nil, NotFoundf("page '%s' has no section '%s'", Clip(page.Name), Clip(show.Section))
		}
		if err := tx.AddPageShow(c.ID, page.ID, show.Section); err != nil {
			return nil, err
		}
		shows, err := tx.PageShows(c.ID)
		if err != nil {
			return nil, err
		}
		r := newReader(tx, true, shows)
		u, err := r.urlOf(page)
		if err != nil {
			return nil, err
		}
		out = &PageShown{URL: u}
		out.Shown, out.ShownSections = shownState(shows, page.ID)
		entry := &JournalEntry{Kind: JournalPage, Title: page.Name, URL: u, PageID: page.ID, Section: show.Section}
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
			return []Event{journal}, nil
		}
		text, err := r.handout(page, show.Section, u)
		if err != nil {
			return nil, err
		}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		screen.OverlayImage, screen.OverlayHandoutText, screen.OverlayType = "", text, OverlayHandout
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.liveScreen(screen)
		out.Screen = screen
		return []Event{journal, {Name: EventScreenUpdated, Data: screen}}, nil
	})
	return out, err
}

// HidePage takes back what players were shown of a page: they can no
// longer open it, and a handout of it on the player screen is taken down
// (screenUpdated).
func (s *Service) HidePage(ctx context.Context, pageID string) (*PageShown, error) {
	p := s.pin()
	var out *PageShown
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
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
		var events []Event
		revoked := false
		for _, e := range entries {
			if e.Kind == JournalPage && e.PageID == page.ID && !e.Revoked {
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
			events = []Event{ev}
		}
		u, err := newReader(tx, true, nil).urlOf(page)
		if err != nil {
			return nil, err
		}
		out = &PageShown{URL: u}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		if screen.OverlayType != OverlayHandout || !strings.Contains(screen.OverlayHandoutText, "]("+u) {
			return events, nil
		}
		screen.OverlayHandoutText, screen.OverlayType = "", ""
		if screen.OverlayImage != "" {
			screen.OverlayType = OverlayImage
		}
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.liveScreen(screen)
		out.Screen = screen
		return append(events, Event{Name: EventScreenUpdated, Data: screen}), nil
	})
	return out, err
}

// handoutReserve is room kept in a handout for its title and link.
const handoutReserve = 2 << 10

// handout writes what was shown of a page as the overlay's Markdown: the
// page's name (when the text does not open with a heading), the text as
// players read it, and a link to the page. A text past the handout's
// limit is cut at a paragraph, the link then says there is more.
func (r *reader) handout(page *Page, section, pageURL string) (string, error) {
	doc := page.Doc()
	if section != "" {
		doc = doc.Only([]string{section})
	}
	// Links follow what players may open now (r.shows); the section cut
	// above is what this handout shows.
	var failure error
	doc.RewriteLinks(func(href, text string) pagehtml.Link {
		l, err := r.link(href, text, page.Owner)
		if err != nil && failure == nil {
			failure = err
		}
		return l
	})
	if failure != nil {
		return "", failure
	}
	doc.RewriteImages(func(src string) (string, bool) {
		return src, strings.HasPrefix(src, "/") || strings.HasPrefix(strings.ToLower(src), "data:image/")
	})
	body := strings.TrimSpace(doc.Markdown())
	link := pageURL
	if section != "" {
		link += "#" + section
	}
	more := "Open the page"
	if limit := maxHandoutText - handoutReserve - len(page.Name) - len(link); len(body) > limit {
		cut := strings.LastIndex(body[:limit], "\n\n")
		if cut < limit/2 {
			cut = limit
		}
		body = strings.ToValidUTF8(body[:cut], "") + "\n\n…"
		more = "Read on"
	}
	var b strings.Builder
	if !strings.HasPrefix(body, "#") {
		b.WriteString("# " + escapeMarkdownLine(page.Name) + "\n\n")
	}
	b.WriteString(body)
	b.WriteString("\n\n[" + more + "](" + link + ")\n")
	return b.String(), nil
}

// escapeMarkdownLine keeps a name from reading as Markdown marks.
func escapeMarkdownLine(s string) string {
	return strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]", "`", "\\`", "<", "\\<", "#", "\\#", "\n", " ").Replace(s)
}

// LibraryRef names a map or encounter a page leads to.
type LibraryRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// related lists the maps and encounters of a page, for the game master:
// those its links name, the maps whose markers open it, then those of its
// group, each once.
func (r *reader) related(page *Page, v *PageView) error {
	v.Maps, v.Encounters = []LibraryRef{}, []LibraryRef{}
	seen := map[string]bool{}
	addMap := func(m *Map) {
		if !seen[m.ID] {
			seen[m.ID] = true
			v.Maps = append(v.Maps, LibraryRef{ID: m.ID, Name: m.Name})
		}
	}
	addEncounter := func(e *Encounter) {
		if !seen[e.ID] {
			seen[e.ID] = true
			v.Encounters = append(v.Encounters, LibraryRef{ID: e.ID, Name: e.Name})
		}
	}
	doc := page.Doc()
	var linked []AppLink
	doc.Walk(func(n *pagehtml.Node) {
		if n.Tag == "a" {
			if l := ParseAppLink(n.Attr("href"), n.TextContent()); l.Kind == LinkMap || l.Kind == LinkEncounter {
				linked = append(linked, l)
			}
		}
	})
	for _, l := range linked {
		id, err := r.findLibrary(l, page.Owner)
		if err != nil || id == "" {
			if err != nil {
				return err
			}
			continue
		}
		if l.Kind == LinkMap {
			m, err := r.tx.Map(id)
			if err != nil {
				return err
			}
			addMap(m)
		} else {
			e, err := r.tx.Encounter(id)
			if err != nil {
				return err
			}
			addEncounter(e)
		}
	}
	maps, err := r.tx.Maps(page.Owner)
	if err != nil {
		return err
	}
	for _, m := range maps {
		for _, mk := range m.Markers {
			ref, _ := mk["reference"].(string)
			if ref == "" {
				continue
			}
			if l := ParseAppLink(ref, ""); l.Kind == LinkPage && (l.Slug == page.Slug || l.Slug == page.ID) {
				addMap(m)
			}
		}
	}
	if page.ParentID != "" {
		for _, m := range maps {
			if m.ParentID == page.ParentID {
				addMap(m)
			}
		}
		encounters, err := r.tx.Encounters(page.Owner)
		if err != nil {
			return err
		}
		for _, e := range encounters {
			if e.ParentID == page.ParentID {
				addEncounter(e)
			}
		}
	}
	return nil
}

// ShowPageMap puts a page's map on the player screen (ShowMap): the one
// named, which must be one of the page's maps (PageView.Maps), or the
// first of them.
func (s *Service) ShowPageMap(ctx context.Context, pageID, mapID string) (*Screen, error) {
	v, err := s.PageView(ctx, pageID)
	if err != nil {
		return nil, err
	}
	if len(v.Maps) == 0 {
		return nil, Conflictf("page '%s' leads to no map: no link, marker or group of its names one", Clip(v.Page.Name))
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
			return nil, NotFoundf("page '%s' does not lead to map '%s'", Clip(v.Page.Name), Clip(mapID))
		}
	}
	return s.ShowMap(ctx, chosen)
}
