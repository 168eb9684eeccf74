package content

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/pagehtml"
)

// The library files of an archive: pages, encounters, groups and assets,
// one JSON array each, every element checked against its schema
// (schemas/page.schema.json...).
const (
	PagesFile      = "pages.json"
	EncountersFile = "encounters.json"
	GroupsFile     = "groups.json"
	AssetsFile     = "assets.json"
	TablesFile     = "tables.json"
)

// Library is what the library files of a folder (or a legacy module's
// content) hold.
type Library struct {
	Pages      []*core.Page
	Encounters []*core.Encounter
	Groups     []*core.Group
	Assets     []*core.Asset
	Tables     []*core.Table
}

func (l *Library) empty() bool {
	return len(l.Pages)+len(l.Encounters)+len(l.Groups)+len(l.Assets)+len(l.Tables) == 0
}

// readLibraryFile reads one library file into out.
func (r contentReader) readLibraryFile(name string, out *Library) error {
	items, err := readArray(r.fsys, name)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, item := range items {
		where := name + " item " + itoa(i+1)
		if err := validateLibraryItem(name, where, item); err != nil {
			return err
		}
		var id string
		switch name {
		case PagesFile:
			var p core.Page
			if err := decodeStrict(where, item, &p); err != nil {
				return err
			}
			if err := r.page(&p, i); err != nil {
				return core.Invalidf("%s: %s", where, core.MessageOf(err))
			}
			id = p.ID
			out.Pages = append(out.Pages, &p)
		case EncountersFile:
			var e core.Encounter
			if err := decodeStrict(where, item, &e); err != nil {
				return err
			}
			e.Owner = r.owner
			if e.Rank == 0 {
				e.Rank = i
			}
			if err := e.Normalize(); err != nil {
				return core.Invalidf("%s: %s", where, core.MessageOf(err))
			}
			id = e.ID
			out.Encounters = append(out.Encounters, &e)
		case GroupsFile:
			var g core.Group
			if err := decodeStrict(where, item, &g); err != nil {
				return err
			}
			g.Owner = r.owner
			if g.Rank == 0 {
				g.Rank = i
			}
			if err := g.Normalize(); err != nil {
				return core.Invalidf("%s: %s", where, core.MessageOf(err))
			}
			id = g.ID
			out.Groups = append(out.Groups, &g)
		case TablesFile:
			t, err := decodeTableItem(where, item)
			if err != nil {
				return err
			}
			t.Owner = r.owner
			if t.Rank == 0 {
				t.Rank = i
			}
			id = t.ID
			out.Tables = append(out.Tables, t)
		case AssetsFile:
			var a core.Asset
			if err := decodeStrict(where, item, &a); err != nil {
				return err
			}
			a.Owner = r.owner
			if a.Rank == 0 {
				a.Rank = i
			}
			if err := a.Normalize(); err != nil {
				return core.Invalidf("%s: %s", where, core.MessageOf(err))
			}
			if a.Resource, err = r.resolve(a.Resource, ""); err != nil {
				return core.Invalidf("%s: resource: %s", where, core.MessageOf(err))
			}
			id = a.ID
			out.Assets = append(out.Assets, &a)
		}
		if seen[id] {
			return core.Invalidf("%s: id '%s' appears twice", where, id)
		}
		seen[id] = true
	}
	return nil
}

// page prepares a page of the folder: its images and links to files of
// the archive become the URLs they are served at, and HTML is sanitised.
func (r contentReader) page(p *core.Page, i int) error {
	p.Owner = r.owner
	if p.Rank == 0 {
		p.Rank = i
	}
	if err := p.Normalize(); err != nil {
		return err
	}
	var err error
	if p.Format == core.PageMarkdown {
		p.Content, err = r.resolveMarkdown(p.Content)
		return err
	}
	p.Content, err = r.resolveHTML(p.Content)
	return err
}

// resolveHTML rewrites a page's relative image sources and file links
// (a path inside the archive) to the URL paths they are served at.
func (r contentReader) resolveHTML(content string) (string, error) {
	return ResolvePageHTML(content, func(ref string) (string, error) { return r.resolve(ref, "") })
}

// ResolvePageHTML rewrites the archive paths of a page's images and links
// through resolve; an image it cannot resolve ("" or an error) is left
// out, a link keeps its text.
func ResolvePageHTML(content string, resolve func(ref string) (string, error)) (string, error) {
	doc := pagehtml.Parse(content)
	var failure error
	fix := func(ref string) (string, bool) {
		if !isArchivePath(ref) {
			return ref, true
		}
		u, err := resolve(ref)
		if err != nil && failure == nil {
			failure = err
		}
		return u, err == nil && u != ""
	}
	doc.RewriteImages(fix)
	doc.RewriteLinks(func(href, _ string) pagehtml.Link {
		if u, ok := fix(href); ok {
			return pagehtml.Link{Href: u}
		}
		return pagehtml.Link{Unwrap: true}
	})
	return doc.HTML(), failure
}

// MarkdownTarget finds the destination of a Markdown link or image.
var MarkdownTarget = regexp.MustCompile(`(\]\(\s*<?)([^)\s>]+)`)

// resolveMarkdown rewrites the relative destinations of a Markdown page's
// links and images as resolveHTML does.
func (r contentReader) resolveMarkdown(content string) (string, error) {
	var failure error
	out := MarkdownTarget.ReplaceAllStringFunc(content, func(m string) string {
		sub := MarkdownTarget.FindStringSubmatch(m)
		if !isArchivePath(sub[2]) {
			return m
		}
		u, err := r.resolve(sub[2], "")
		if err != nil {
			if failure == nil {
				failure = err
			}
			return m
		}
		return sub[1] + u
	})
	return out, failure
}

// isArchivePath reports whether a link or image target is a path inside
// the archive: relative, with a file extension (other.pdf, art/map.png),
// not an app URL's bare kind ([Goblin](monster)), a fragment or a URL.
func isArchivePath(ref string) bool {
	if ref == "" || strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "#") || strings.Contains(ref, ":") {
		return false
	}
	base := ref
	if i := strings.LastIndex(base, "/"); i >= 0 {
		base = base[i+1:]
	}
	base, _, _ = strings.Cut(base, "#")
	return strings.Contains(base, ".")
}

// put writes the library rows; an id that belongs to other content is a
// conflict, never a takeover.
func (l *Library) put(tx core.Tx, owner string) error {
	for _, g := range l.Groups {
		if old, err := tx.Group(g.ID); err == nil && old.Owner != owner {
			return core.Conflictf("group id '%s' (%s) already belongs to other content", g.ID, g.Name)
		} else if err != nil && !core.IsNotFound(err) {
			return err
		}
		if err := tx.PutGroup(g); err != nil {
			return err
		}
	}
	for _, p := range l.Pages {
		if old, err := tx.Page(p.ID); err == nil && old.Owner != owner {
			return core.Conflictf("page id '%s' (%s) already belongs to other content", p.ID, p.Name)
		} else if err != nil && !core.IsNotFound(err) {
			return err
		}
		if err := tx.PutPage(p); err != nil {
			return err
		}
	}
	for _, e := range l.Encounters {
		if old, err := tx.Encounter(e.ID); err == nil && old.Owner != owner {
			return core.Conflictf("encounter id '%s' (%s) already belongs to other content", e.ID, e.Name)
		} else if err != nil && !core.IsNotFound(err) {
			return err
		}
		if err := tx.PutEncounter(e); err != nil {
			return err
		}
	}
	for _, t := range l.Tables {
		if old, err := tx.Table(t.ID); err == nil && old.Owner != owner {
			return core.Conflictf("table id '%s' (%s) already belongs to other content", t.ID, t.Name)
		} else if err != nil && !core.IsNotFound(err) {
			return err
		}
		if err := tx.PutTable(t); err != nil {
			return err
		}
	}
	for _, a := range l.Assets {
		if old, err := tx.Asset(a.ID); err == nil && old.Owner != owner {
			return core.Conflictf("asset id '%s' (%s) already belongs to other content", a.ID, a.Name)
		} else if err != nil && !core.IsNotFound(err) {
			return err
		}
		if err := tx.PutAsset(a); err != nil {
			return err
		}
	}
	return nil
}

// decodeTableItem reads one element of tables.json (the original's Table,
// whose other fields, such as its roll history, are left out) and checks
// it whole (core.Table.Normalize).
func decodeTableItem(where string, item []byte) (*core.Table, error) {
	var in struct {
		core.Table
		Notes string `json:"notes"`
	}
	if err := json.Unmarshal(item, &in); err != nil {
		return nil, core.Invalidf("%s: %s", where, core.JSONErrorText(err))
	}
	t := in.Table
	if err := t.Normalize(); err != nil {
		return nil, core.Invalidf("%s: %s", where, core.MessageOf(err))
	}
	return &t, nil
}
