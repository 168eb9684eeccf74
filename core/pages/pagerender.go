package pages

import (
	"net/url"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/pagehtml"
)

// URLs writes the URLs of one owner's pages: /module/<slug>/page/<slug>
// (or /campaign/...), with the id in place of a slug another module (or
// page of the module) shares, so that a URL names one page.
type URLs struct {
	owner     core.ContentOwner
	ownerPart string
	slugs     map[string]int // how many of the owner's pages have each slug
}

func NewPageURLs(tx Store, owner core.ContentOwner) (*URLs, error) {
	same, err := ownersAt(tx, owner.Kind, owner.Slug)
	if err != nil {
		return nil, err
	}
	u := &URLs{owner: owner, ownerPart: owner.Slug, slugs: map[string]int{}}
	if len(same) != 1 || owner.Slug == "" {
		u.ownerPart = owner.ID
	}
	heads, err := tx.Pages(core.PageQuery{Owner: owner.ID})
	if err != nil {
		return nil, err
	}
	for _, p := range heads {
		u.slugs[p.Slug]++
	}
	return u, nil
}

func (u *URLs) Of(p *core.Page) string {
	part := p.Slug
	if part == "" || u.slugs[p.Slug] > 1 {
		part = p.ID
	}
	return "/" + u.owner.Kind + "/" + url.PathEscape(u.ownerPart) + "/page/" + url.PathEscape(part)
}

// Reader is who a page is rendered for: players (what was shown to them)
// or the game master (everything), inside one transaction.
type Reader struct {
	tx      Store
	players bool
	shows   []core.PageShow
	urls    map[string]*URLs // by owner id
	owners  map[string]core.ContentOwner
}

func NewReader(tx Store, players bool, shows []core.PageShow) *Reader {
	return &Reader{tx: tx, players: players, shows: shows, urls: map[string]*URLs{}, owners: map[string]core.ContentOwner{}}
}

func (r *Reader) owner(id string) (core.ContentOwner, error) {
	if o, ok := r.owners[id]; ok {
		return o, nil
	}
	o, err := OwnerOf(r.tx, id)
	if err != nil {
		return o, err
	}
	r.owners[id] = o
	return o, nil
}

// UrlOf is the page's URL.
func (r *Reader) UrlOf(p *core.Page) (string, error) {
	u, ok := r.urls[p.Owner]
	if !ok {
		o, err := r.owner(p.Owner)
		if err != nil {
			return "", err
		}
		if u, err = NewPageURLs(r.tx, o); err != nil {
			return "", err
		}
		r.urls[p.Owner] = u
	}
	return u.Of(p), nil
}

// may reports whether the reader may open the page at all.
func (r *Reader) may(p *core.Page) bool {
	if !r.players {
		return true
	}
	whole, sections := pageAccess(r.shows, p.ID)
	return whole || len(sections) > 0
}

// FindPages lists the pages a link or URL names, in the order they are
// preferred: a page with that id, then those with that slug (the home
// owner's first when the link names no container).
func (r *Reader) FindPages(scopeKind, scope, slugOrID, home string) ([]*core.Page, error) {
	var owners []string
	if scopeKind != "" {
		list, err := ownersAt(r.tx, scopeKind, scope)
		if err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, nil
		}
		for _, o := range list {
			owners = append(owners, o.ID)
		}
	}
	inScope := func(p *core.Page) bool {
		if scopeKind == "" {
			return true
		}
		for _, o := range owners {
			if p.Owner == o {
				return true
			}
		}
		return false
	}
	var out []*core.Page
	if p, err := r.tx.Page(slugOrID); err == nil && inScope(p) {
		out = append(out, p)
	} else if err != nil && !core.IsNotFound(err) {
		return nil, err
	}
	bySlug, err := r.tx.Pages(core.PageQuery{Slug: slugOrID})
	if err != nil {
		return nil, err
	}
	var home1, rest []*core.Page
	for _, p := range bySlug {
		if !inScope(p) || (len(out) > 0 && p.ID == out[0].ID) {
			continue
		}
		if p.Owner == home {
			home1 = append(home1, p)
		} else {
			rest = append(rest, p)
		}
	}
	return append(append(out, home1...), rest...), nil
}

// FirstReadable is the first of the pages the reader may open, with its
// content; nil when none.
func (r *Reader) FirstReadable(pages []*core.Page) (*core.Page, error) {
	for _, p := range pages {
		if !r.may(p) {
			continue
		}
		if p.Content == "" {
			full, err := r.tx.Page(p.ID)
			if err != nil {
				return nil, err
			}
			return full, nil
		}
		return p, nil
	}
	return nil, nil
}

// render writes a page's body for the reader: the whole page or the shown
// sections, each link leading where the reader may go (or unwrapped to
// its text), images from this server only.
func (r *Reader) render(p *core.Page) (*pagehtml.Doc, error) {
	doc := p.Doc()
	if r.players {
		whole, sections := pageAccess(r.shows, p.ID)
		if !whole {
			doc = doc.Only(sections)
		}
	}
	var failure error
	doc.RewriteLinks(func(href, text string) pagehtml.Link {
		l, err := r.link(href, text, p.Owner)
		if err != nil && failure == nil {
			failure = err
		}
		return l
	})
	doc.RewriteImages(func(src string) (string, bool) {
		// Images of this server only: another site's would tell it who
		// reads the page (and a relative path was resolved on install).
		return src, strings.HasPrefix(src, "/") || strings.HasPrefix(strings.ToLower(src), "data:image/")
	})
	return doc, failure
}

// link is what one link becomes for the reader.
func (r *Reader) link(href, text, home string) (pagehtml.Link, error) {
	l := ParseAppLink(href, text)
	tagged := func(kind, id, to string) pagehtml.Link {
		return pagehtml.Link{Href: to, Attrs: []pagehtml.Attr{{Key: "data-link", Val: kind}, {Key: "data-id", Val: id}}}
	}
	frag := ""
	if l.Fragment != "" {
		frag = "#" + url.PathEscape(l.Fragment)
	}
	switch l.Kind {
	case LinkExternal:
		if strings.HasPrefix(href, "#") {
			return pagehtml.Link{Href: href}, nil
		}
		return pagehtml.Link{Href: href, Attrs: []pagehtml.Attr{{Key: "rel", Val: "noopener noreferrer"}, {Key: "target", Val: "_blank"}}}, nil
	case LinkFile:
		return pagehtml.Link{Href: href}, nil
	case LinkEntity:
		return pagehtml.Link{Href: "/" + l.EntityKind + "/" + url.PathEscape(l.Slug)}, nil
	case LinkPage:
		pages, err := r.FindPages(l.ScopeKind, l.Scope, l.Slug, home)
		if err != nil {
			return pagehtml.Link{Unwrap: true}, err
		}
		for _, p := range pages {
			if r.may(p) {
				to, err := r.UrlOf(p)
				if err != nil {
					return pagehtml.Link{Unwrap: true}, err
				}
				if r.players {
					return pagehtml.Link{Href: to + frag}, nil
				}
				return tagged("page", p.ID, to+frag), nil
			}
		}
		return pagehtml.Link{Unwrap: true}, nil
	}
	if r.players {
		// Maps, encounters, groups, assets, tables and rolls are the game
		// master's to open: players keep the text.
		return pagehtml.Link{Unwrap: true}, nil
	}
	switch l.Kind {
	case LinkMap, LinkEncounter, LinkGroup, LinkAsset:
		id, err := r.findLibrary(l, home)
		if err != nil || id == "" {
			return pagehtml.Link{Unwrap: true}, err
		}
		return tagged(l.Kind, id, href), nil
	}
	return tagged("other", "", href), nil
}

// findLibrary finds the map, encounter, group or asset a link names: by
// id, else by slug, in the home owner first (or the container the link
// names), then anywhere. "" when none.
func (r *Reader) findLibrary(l AppLink, home string) (string, error) {
	type item struct{ id, slug, owner string }
	var items []item
	switch l.Kind {
	case LinkMap:
		maps, err := r.tx.Maps("")
		if err != nil {
			return "", err
		}
		for _, m := range maps {
			items = append(items, item{m.ID, m.Slug, m.Owner})
		}
	case LinkEncounter:
		list, err := r.tx.Encounters("")
		if err != nil {
			return "", err
		}
		for _, e := range list {
			items = append(items, item{e.ID, e.Slug, e.Owner})
		}
	case LinkGroup:
		list, err := r.tx.Groups("")
		if err != nil {
			return "", err
		}
		for _, g := range list {
			items = append(items, item{g.ID, g.Slug, g.Owner})
		}
	case LinkAsset:
		list, err := r.tx.Assets("")
		if err != nil {
			return "", err
		}
		for _, a := range list {
			items = append(items, item{a.ID, a.Slug, a.Owner})
		}
	}
	scoped := map[string]bool{}
	if l.ScopeKind != "" {
		owners, err := ownersAt(r.tx, l.ScopeKind, l.Scope)
		if err != nil {
			return "", err
		}
		for _, o := range owners {
			scoped[o.ID] = true
		}
	}
	best, bestRank := "", 4
	for _, it := range items {
		if l.ScopeKind != "" && !scoped[it.owner] {
			continue
		}
		rank := 4
		switch {
		case it.id == l.Slug:
			rank = 0
		case it.slug == l.Slug && it.owner == home:
			rank = 1
		case it.slug == l.Slug:
			rank = 2
		}
		if rank < bestRank {
			best, bestRank = it.id, rank
		}
	}
	return best, nil
}
