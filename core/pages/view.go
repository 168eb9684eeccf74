package pages

import (
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/pagehtml"
)

// View renders a page for the reader.
func (r *Reader) View(page *core.Page) (*core.PageView, error) {
	owner, err := r.owner(page.Owner)
	if err != nil {
		return nil, err
	}
	u, err := r.UrlOf(page)
	if err != nil {
		return nil, err
	}
	doc, err := r.render(page)
	if err != nil {
		return nil, err
	}
	v := &core.PageView{Page: page, Owner: owner, URL: u, HTML: doc.HTML(), Sections: doc.Sections(), Title: page.Name}
	if v.Sections == nil {
		v.Sections = []pagehtml.Section{}
	}
	v.Shown, v.ShownSections = ShownState(r.shows, page.ID)
	if r.players {
		v.Page = &core.Page{ID: page.ID, Name: page.Name, Slug: page.Slug}
		return v, nil
	}
	return v, r.related(page, v)
}

// MaxHandoutText bounds a text handout.
const MaxHandoutText = 64 << 10

// handoutReserve is room kept in a handout for its title and link.
const handoutReserve = 2 << 10

// Handout writes what was shown of a page as the overlay's Markdown: the
// page's name (when the text does not open with a heading), the text as
// players read it, and a link to the page. A text past the handout's
// limit is cut at a paragraph, the link then says there is more.
func (r *Reader) Handout(page *core.Page, section, pageURL string) (string, error) {
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
	if limit := MaxHandoutText - handoutReserve - len(page.Name) - len(link); len(body) > limit {
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

// related lists the maps and encounters of a page, for the game master:
// those its links name, the maps whose markers open it, then those of its
// group, each once.
func (r *Reader) related(page *core.Page, v *core.PageView) error {
	v.Maps, v.Encounters = []core.LibraryRef{}, []core.LibraryRef{}
	seen := map[string]bool{}
	addMap := func(m *core.Map) {
		if !seen[m.ID] {
			seen[m.ID] = true
			v.Maps = append(v.Maps, core.LibraryRef{ID: m.ID, Name: m.Name})
		}
	}
	addEncounter := func(e *core.Encounter) {
		if !seen[e.ID] {
			seen[e.ID] = true
			v.Encounters = append(v.Encounters, core.LibraryRef{ID: e.ID, Name: e.Name})
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
