package core

import (
	"math"
	"strings"

	"github.com/vttapp/companion/pagehtml"
)

// The adventure content a module or campaign owns besides its entities
// and maps: pages of text, encounters ready to run, groups that order
// them, and assets (images to place). Each sits in its owner's library
// tree through ParentID (a Group's id, "" at the top) and Rank (lower
// first), as maps do.

// Page formats.
const (
	PageHTML     = "html"
	PageMarkdown = "markdown"
)

// Page is a page of text: a chapter, a room, a handout. Its content is
// HTML (sanitised when stored: pagehtml's allow-list) or Markdown (kept as
// written, converted and sanitised when shown).
type Page struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Slug     string `json:"slug"`
	Format   string `json:"format,omitempty"`
	Content  string `json:"content"`
	ParentID string `json:"parentId"`
	Rank     int    `json:"rank"`

	// Owner is the module or campaign that owns the page; Revision
	// increases on every write. Neither is part of the published shape.
	Owner    string `json:"-"`
	Revision int64  `json:"-"`
}

// Normalize fills a page's defaults and sanitises HTML content.
func (p *Page) Normalize() error {
	if strings.TrimSpace(p.Name) == "" {
		return Invalidf("page: name is required")
	}
	if p.ID == "" {
		p.ID = NewID()
	}
	if p.Slug == "" {
		p.Slug = Slugify(p.Name)
	}
	p.Format = strings.ToLower(p.Format)
	switch p.Format {
	case "", PageHTML:
		p.Format = PageHTML
	case PageMarkdown:
	default:
		return Invalidf("page '%s': format must be html or markdown, not '%s'", Clip(p.Name), Clip(p.Format))
	}
	if len(p.Content) > MaxPageBytes {
		return TooLarge("page '"+Clip(p.Name)+"'", len(p.Content), MaxPageBytes)
	}
	if p.Format == PageHTML {
		p.Content = pagehtml.Parse(p.Content).HTML()
	}
	return nil
}

// Doc reads the page's content into a sanitised document.
func (p *Page) Doc() *pagehtml.Doc { return pagehtml.ParseContent(p.Content, p.Format) }

// Group is a folder of a library tree: it orders pages, maps, encounters,
// assets and other groups (those whose ParentID is its id).
type Group struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Slug     string `json:"slug"`
	ParentID string `json:"parentId"`
	Rank     int    `json:"rank"`

	Owner    string `json:"-"`
	Revision int64  `json:"-"`
}

// Normalize fills a group's defaults.
func (g *Group) Normalize() error {
	if strings.TrimSpace(g.Name) == "" {
		return Invalidf("group: name is required")
	}
	if g.ID == "" {
		g.ID = NewID()
	}
	if g.Slug == "" {
		g.Slug = Slugify(g.Name)
	}
	if g.ParentID == g.ID {
		return Invalidf("group '%s' cannot contain itself", Clip(g.Name))
	}
	return nil
}

// Encounter is a fight prepared ahead: the creatures that take part, how
// many of each, whose side, and where they stand when given. Running it
// places their tokens on a map and adds them to combat.
type Encounter struct {
	ID         string              `json:"id"`
	Name       string              `json:"name"`
	Slug       string              `json:"slug"`
	Descr      string              `json:"descr"`
	MapID      string              `json:"mapId,omitempty"`
	Combatants []EncounterCreature `json:"combatants"`
	ParentID   string              `json:"parentId"`
	Rank       int                 `json:"rank"`

	Owner    string `json:"-"`
	Revision int64  `json:"-"`
}

// EncounterCreature is one entry of an encounter: a creature named by its
// entity (reference "/monster/goblin", or entityId), Count of them (one
// when unset), their label and side, and where the first stands (x, y in
// map pixels; absent or -1 when not placed).
type EncounterCreature struct {
	Reference string   `json:"reference,omitempty"`
	EntityID  string   `json:"entityId,omitempty"`
	Name      string   `json:"name,omitempty"`
	Label     string   `json:"label,omitempty"`
	Role      string   `json:"role,omitempty"`
	Count     int      `json:"count,omitempty"`
	X         *float64 `json:"x,omitempty"`
	Y         *float64 `json:"y,omitempty"`
	Hidden    bool     `json:"hidden,omitempty"`
}

// Placed reports whether the entry gives a position.
func (c EncounterCreature) Placed() bool {
	return c.X != nil && c.Y != nil && *c.X >= 0 && *c.Y >= 0
}

// MaxEncounterCreatures bounds the creatures of one encounter, counts
// included: an encounter becomes as many tokens and combatants at once.
const MaxEncounterCreatures = 200

// Normalize fills an encounter's defaults and checks its creatures.
func (e *Encounter) Normalize() error {
	if strings.TrimSpace(e.Name) == "" {
		return Invalidf("encounter: name is required")
	}
	if e.ID == "" {
		e.ID = NewID()
	}
	if e.Slug == "" {
		e.Slug = Slugify(e.Name)
	}
	if e.Combatants == nil {
		e.Combatants = []EncounterCreature{}
	}
	total := 0
	for i := range e.Combatants {
		c := &e.Combatants[i]
		where := func(format string, args ...any) error {
			return Invalidf("encounter '%s', creature %d: "+format, append([]any{Clip(e.Name), i + 1}, args...)...)
		}
		if c.Reference == "" && c.EntityID == "" && strings.TrimSpace(c.Name) == "" {
			return where("give its 'reference' (/monster/goblin), 'entityId' or 'name'")
		}
		if c.Reference != "" {
			if _, _, ok := SplitReference(c.Reference); !ok {
				return where("reference '%s' must be written /kind/slug, e.g. /monster/goblin", Clip(c.Reference))
			}
		}
		switch c.Role {
		case "", RoleHostile, RoleFriendly, RoleNeutral:
		default:
			return where("role must be hostile, friendly or neutral, not '%s'", Clip(c.Role))
		}
		if c.Count == 0 {
			c.Count = 1
		}
		if c.Count < 0 || c.Count > MaxEncounterCreatures {
			return where("count must be between 1 and %d", MaxEncounterCreatures)
		}
		total += c.Count
		for _, v := range []*float64{c.X, c.Y} {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || math.Abs(*v) > 1e7) {
				return where("x and y must be map coordinates")
			}
		}
		if !c.Placed() {
			c.X, c.Y = nil, nil
		}
	}
	if total > MaxEncounterCreatures {
		return Invalidf("encounter '%s' has %d creatures; at most %d", Clip(e.Name), total, MaxEncounterCreatures)
	}
	return nil
}

// Asset is an image a module offers to place on maps (an asset pack's
// content): its file (Resource, the URL path it is served at), its kind
// (image, pattern, spriteSheet) and its grid size and other parameters.
type Asset struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Slug       string   `json:"slug"`
	Type       string   `json:"type"`
	Resource   string   `json:"resource"`
	Tags       []string `json:"tags"`
	Parameters Object   `json:"parameters"`
	Components []Object `json:"components"`
	ParentID   string   `json:"parentId"`
	Rank       int      `json:"rank"`

	Owner    string `json:"-"`
	Revision int64  `json:"-"`
}

// Normalize fills an asset's defaults.
func (a *Asset) Normalize() error {
	if strings.TrimSpace(a.Name) == "" {
		return Invalidf("asset: name is required")
	}
	if a.ID == "" {
		a.ID = NewID()
	}
	if a.Slug == "" {
		a.Slug = Slugify(a.Name)
	}
	if a.Type == "" {
		a.Type = "image"
	}
	if a.Tags == nil {
		a.Tags = []string{}
	}
	if a.Parameters == nil {
		a.Parameters = Object{}
	}
	if a.Components == nil {
		a.Components = []Object{}
	}
	return checkDepth(a.Parameters, MaxDataDepth, "parameters")
}

// SplitReference splits an app URL "/kind/slug" (a token's, a combatant's,
// an encounter creature's reference) into its kind and slug.
func SplitReference(ref string) (kind, slug string, ok bool) {
	kind, slug, found := strings.Cut(strings.TrimPrefix(ref, "/"), "/")
	if !found || kind == "" || slug == "" || !strings.HasPrefix(ref, "/") || strings.Contains(slug, "/") {
		return "", "", false
	}
	return kind, slug, true
}
