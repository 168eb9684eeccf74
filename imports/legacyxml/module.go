package legacyxml

import (
	"io"
	"strings"
)

// Module is a legacy module.xml: a module's details and its content.
// Every element this reader does not know is kept in Other, as read.
type Module struct {
	Header
	Bookmark bool
	Content
}

// Header is what a module.xml and a pack.xml both say of themselves.
type Header struct {
	ID, Sort, Version string // attributes
	Name, Slug        string
	Description       string
	Author, Code      string // Code is the short code (the new format's acronym)
	Category          string
	Image             string // cover image, a file of the archive
}

// readHeader starts the header of root from its attributes.
func readHeader(root *Element) Header {
	return Header{ID: root.Attr("id"), Sort: root.Attr("sort"), Version: root.Attr("version")}
}

// read takes c into the header when it is one of the header's elements.
func (h *Header) read(v *values, c *Element) bool {
	switch c.Name {
	case "name":
		h.Name = v.text(c)
	case "slug":
		h.Slug = v.text(c)
	case "description", "descr":
		h.Description = v.text(c)
	case "author":
		h.Author = v.text(c)
	case "code":
		h.Code = v.text(c)
	case "category":
		h.Category = v.text(c)
	case "image":
		h.Image = v.text(c)
	default:
		return false
	}
	return true
}

// Campaign is a legacy campaign.xml.
type Campaign struct {
	ID, Sort    string
	Name, Slug  string
	Description string
	Image       string
	// Modules and Players are the campaign's references to modules and
	// player characters installed elsewhere (<module ref="/module/x"/>).
	Modules []Reference
	Players []Reference
	Content
}

// Content is what modules and campaigns hold. Pages, maps, encounters and
// groups found inside a group (or a page) are listed here too, with
// Parent set to the element they were in when they name none.
type Content struct {
	Pages      []*Page
	Maps       []*Map
	Encounters []*Encounter
	Groups     []*Group
	// Entries are compendium entries embedded in the module (monsters,
	// items, spells, players...), read as a compendium's.
	Entries []Entry
	Other   []*Element
}

// Reference is a link to other content: its id attribute and its ref
// ("/monster/goblin", "/page/intro").
type Reference struct {
	ID, Ref string
}

// Page is a page of text: HTML, escaped in the XML.
type Page struct {
	ID, Parent, Sort string
	Name, Slug       string
	Content          string // HTML as written (after XML unescaping)
	Other            []*Element
}

// Group is a folder that orders pages, maps and encounters.
type Group struct {
	ID, Parent, Sort string
	Name, Slug       string
	Other            []*Element
}

// Encounter is a group of combatants, with positions when given.
type Encounter struct {
	ID, Parent, Sort string
	Name, Slug       string
	Description      string
	Combatants       []Combatant
	Other            []*Element
}

// Combatant is a creature of an encounter.
type Combatant struct {
	Label, Name string
	Role        string // hostile, friendly, neutral
	X, Y        float64
	Monster     Reference // <monster ref="/monster/goblin"/>
	Other       []*Element
}

// Map is a battle map.
type Map struct {
	ID, Parent, Sort string
	Name, Slug       string
	Description      string
	// Files of the archive: background image or video, drawings (an SVG
	// whose paths of class "wall" are walls: ReadCanvasWalls), snapshot,
	// floor and fog masks.
	Image, Video, Canvas, Snapshot, Floor, Fog string

	GridSize                 float64
	GridOffsetX, GridOffsetY float64
	GridColor                string
	GridVisible              *bool
	GridType                 string // square, hexPointy, hexFlat... as written
	GridScale                float64
	GridUnits                string
	Scale                    float64
	X, Y, Zoom               float64
	FogVisible               *bool // <fogVisible>, or <fogOfWar> of converters
	FogExploration           *bool
	LineOfSight              *bool
	Daylight                 *float64 // <daylight>, or <losDaylight>

	Markers  []Marker
	Tiles    []Tile
	Lights   []Light
	Walls    []Wall
	Tokens   []Token
	Drawings []Drawing
	Other    []*Element
}

// Marker is a pin or label on a map, usually linking a page.
type Marker struct {
	Name, Label    string
	Color          string
	Shape, Size    string
	Hidden, Locked bool
	X, Y           float64
	Content        Reference // <content ref="/page/x"/>
	Other          []*Element
}

// Tile is an image placed on a map.
type Tile struct {
	ID                  string
	X, Y, Width, Height float64
	Rotation            float64
	Opacity             *float64
	Layer               string // map, object, token, dm...
	ZIndex              int
	Hidden, Locked      bool
	Asset               *Asset
	Light               *Light
	Components          []Component
	Other               []*Element
}

// Asset is an image (or pattern, sprite sheet) of a tile or a pack.
type Asset struct {
	ID, Parent, Sort        string
	Name, Slug              string
	Type                    string // image, pattern, spriteSheet
	Tags                    string
	Resource                string // a file of the archive
	Size                    string // grid size, "1x2"
	FrameWidth, FrameHeight int
	Duration, Scale         float64
	GridAlign               bool
	Other                   []*Element
}

// Light is a light source: on a tile, on a player, or on the map itself
// (with a position).
type Light struct {
	ID                   string
	Enabled              *bool
	RadiusMin, RadiusMax float64 // bright and dim radius, in the map's units
	Color                string
	Opacity              *float64
	AlwaysVisible        bool
	X, Y                 float64
	Other                []*Element
}

// Wall is a wall polyline (converters write them; the application kept
// walls in the canvas SVG).
type Wall struct {
	ID        string
	Points    []float64 // x1,y1,x2,y2,...
	Type      string    // normal, door, secretDoor, ethereal, invisible, terrain
	Color     string
	Door      string // open, locked (closed when empty)
	Side      string // left, right (one-way walls)
	Generated bool
	Other     []*Element
}

// Token is a creature placed on a map.
type Token struct {
	ID                  string
	Name                string
	X, Y                float64
	Hidden              bool
	Scale               float64
	Size                string // T, S, M, L, H, G, C or "WxH"
	Rotation, Elevation float64
	Reference           string // "/monster/goblin"
	Asset               *Asset
	Vision              *Vision
	Other               []*Element
}

// Vision is a token's light and darkvision.
type Vision struct {
	ID                           string
	Enabled, Light, Dark         *bool
	LightRadiusMin               float64
	LightRadiusMax               float64
	LightOpacity                 *float64
	DarkRadiusMin, DarkRadiusMax float64
	Other                        []*Element
}

// Drawing is a shape drawn on a map.
type Drawing struct {
	ID                     string
	Layer, Shape           string
	StrokeWidth            float64
	StrokeColor, FillColor string
	Opacity                *float64
	Points                 []float64
	Other                  []*Element
}

// Component is a filter or animation of a tile: its type, whether it is
// on, and its parameters as written (color, param...).
type Component struct {
	Type    string
	Enabled *bool
	Params  map[string]string
}

// ReadModule reads a module.xml.
func ReadModule(r io.Reader, file string, lim Limits) (*Module, error) {
	root, err := readRoot(r, file, lim, "module")
	if err != nil {
		return nil, err
	}
	v := &values{file: file}
	m := &Module{Header: readHeader(root)}
	for _, c := range root.Children {
		if m.Header.read(v, c) {
			continue
		}
		switch c.Name {
		case "bookmark":
			m.Bookmark = v.yes(c)
		default:
			m.Content.add(v, c, "")
		}
	}
	if v.err != nil {
		return nil, v.err
	}
	return m, nil
}

// ReadCampaign reads a campaign.xml.
func ReadCampaign(r io.Reader, file string, lim Limits) (*Campaign, error) {
	root, err := readRoot(r, file, lim, "campaign")
	if err != nil {
		return nil, err
	}
	v := &values{file: file}
	c := &Campaign{ID: root.Attr("id"), Sort: root.Attr("sort")}
	for _, ch := range root.Children {
		switch ch.Name {
		case "name":
			c.Name = v.text(ch)
		case "slug":
			c.Slug = v.text(ch)
		case "description", "descr":
			c.Description = v.text(ch)
		case "image":
			c.Image = v.text(ch)
		case "module":
			c.Modules = append(c.Modules, reference(ch))
		case "player":
			if ch.Attr("ref") != "" { // a reference; a full <player> is an embedded entry
				c.Players = append(c.Players, reference(ch))
				continue
			}
			c.Content.add(v, ch, "")
		default:
			c.Content.add(v, ch, "")
		}
	}
	if v.err != nil {
		return nil, v.err
	}
	return c, nil
}

// readRoot reads a whole document whose root must be want.
func readRoot(r io.Reader, file string, lim Limits, want string) (*Element, error) {
	root, err := ReadDocument(r, file, lim)
	if err != nil {
		return nil, err
	}
	if root.Name != want {
		return nil, &Error{File: file, Line: root.Line, Msg: "the root element is <" + root.Name + ">, not <" + want + ">"}
	}
	return root, nil
}

func reference(el *Element) Reference {
	ref := el.Attr("ref")
	if ref == "" {
		ref = strings.TrimSpace(el.Text)
	}
	return Reference{ID: el.Attr("id"), Ref: ref}
}

// add files a top-level element of a module or campaign (or one found in
// a group or page, whose id is parent).
func (ct *Content) add(v *values, el *Element, parent string) {
	switch el.Name {
	case "page":
		p := readPage(v, el, ct)
		p.Parent = first(p.Parent, parent)
		ct.Pages = append(ct.Pages, p)
	case "map":
		m := readMap(v, el)
		m.Parent = first(m.Parent, parent)
		ct.Maps = append(ct.Maps, m)
	case "encounter":
		e := readEncounter(v, el)
		e.Parent = first(e.Parent, parent)
		ct.Encounters = append(ct.Encounters, e)
	case "group":
		g := &Group{ID: el.Attr("id"), Parent: first(el.Attr("parent"), parent), Sort: el.Attr("sort")}
		ct.Groups = append(ct.Groups, g)
		for _, c := range el.Children {
			switch c.Name {
			case "name":
				g.Name = v.text(c)
			case "slug":
				g.Slug = v.text(c)
			case "page", "map", "encounter", "group":
				ct.add(v, c, g.ID)
			default:
				g.Other = append(g.Other, c)
			}
		}
	default:
		if IsCompendiumKind(el.Name) {
			ct.Entries = append(ct.Entries, Entry{Kind: el.Name, Element: el})
			return
		}
		ct.Other = append(ct.Other, el)
	}
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// readPage reads a page; pages nested in it are filed in ct.
func readPage(v *values, el *Element, ct *Content) *Page {
	p := &Page{ID: el.Attr("id"), Parent: el.Attr("parent"), Sort: el.Attr("sort")}
	for _, c := range el.Children {
		switch c.Name {
		case "name":
			p.Name = v.text(c)
		case "slug":
			p.Slug = v.text(c)
		case "content":
			p.Content = strings.TrimSpace(c.Text)
		case "page":
			ct.add(v, c, p.ID)
		default:
			p.Other = append(p.Other, c)
		}
	}
	return p
}

func readEncounter(v *values, el *Element) *Encounter {
	e := &Encounter{ID: el.Attr("id"), Parent: el.Attr("parent"), Sort: el.Attr("sort")}
	for _, c := range el.Children {
		switch c.Name {
		case "name":
			e.Name = v.text(c)
		case "slug":
			e.Slug = v.text(c)
		case "descr", "description":
			e.Description = v.text(c)
		case "combatant":
			e.Combatants = append(e.Combatants, readCombatant(v, c))
		default:
			e.Other = append(e.Other, c)
		}
	}
	return e
}

func readCombatant(v *values, el *Element) Combatant {
	var c Combatant
	for _, ch := range el.Children {
		switch ch.Name {
		case "label":
			c.Label = v.text(ch)
		case "name":
			c.Name = v.text(ch)
		case "role":
			c.Role = v.text(ch)
		case "x":
			c.X = v.float(ch)
		case "y":
			c.Y = v.float(ch)
		case "monster":
			c.Monster = reference(ch)
		default:
			c.Other = append(c.Other, ch)
		}
	}
	return c
}
