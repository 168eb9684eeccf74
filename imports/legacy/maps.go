package legacy

import (
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/legacyxml"
)

// legacyFiles resolves the file references of a legacy archive: a file of
// the archive becomes the URL it is served at; a reference to a file the
// archive lacks is dropped and noted.
type legacyFiles struct {
	fsys    fs.FS
	prefix  string // the owner's URL path, /modules/<id>
	missing []string
	limits  legacyxml.Limits
}

// file resolves one reference ("" when empty or missing). http(s) URLs are
// kept; anything else that is not a path inside the archive is dropped.
func (f *legacyFiles) file(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	if keep, err := content.CheckExternalRef(ref); err == nil && keep && !strings.HasPrefix(ref, "/") {
		return ref
	}
	rel, err := content.RelativeRef(strings.TrimPrefix(ref, "/"))
	if err == nil {
		if info, err := fs.Stat(f.fsys, rel); err == nil && info.Mode().IsRegular() {
			return f.prefix + "/" + rel
		}
	}
	f.missing = append(f.missing, ref)
	return ""
}

// legacyMap turns a legacy map into a map of the owner: its files, grid,
// markers, tiles, lights, walls (written in the XML and drawn in its
// canvas), tokens and drawings. entityFor links a token's reference to an
// entity. The canvas file itself is not kept (read, it may hold the game
// master's dm layer, which players must not fetch): its walls and
// drawings are the map's.
func (f *legacyFiles) legacyMap(lm *legacyxml.Map, owner string, rank int, entityFor func(ref string) *string) (*core.Map, []string, error) {
	m := &core.Map{ID: lm.ID, Name: strings.TrimSpace(lm.Name), Owner: owner, ParentID: lm.Parent, Rank: sortRank(lm.Sort, rank),
		Descr: lm.Description, GridColor: lm.GridColor, GridType: lm.GridType, GridScale: lm.GridScale, GridUnits: lm.GridUnits,
		Scale: lm.Scale, X: lm.X, Y: lm.Y, Zoom: lm.Zoom, GridVisible: true, LosDaylight: 1}
	if m.Name == "" {
		m.Name = "Map"
	}
	m.Slug = legacySlug(lm.Slug, m.Name)
	m.GridSize = int(math.Round(lm.GridSize))
	m.GridOffsetX, m.GridOffsetY = int(math.Round(lm.GridOffsetX)), int(math.Round(lm.GridOffsetY))
	if lm.GridVisible != nil {
		m.GridVisible = *lm.GridVisible
	}
	if lm.FogVisible != nil {
		m.FogOfWar = *lm.FogVisible
	}
	if lm.FogExploration != nil {
		m.FogExploration = *lm.FogExploration
	}
	if lm.LineOfSight != nil {
		m.LineOfSight = *lm.LineOfSight
	}
	if lm.Daylight != nil {
		m.LosDaylight = math.Max(0, math.Min(1, *lm.Daylight))
	}
	m.LosVisionLimit = -1
	m.Image, m.Video = f.file(lm.Image), f.file(lm.Video)
	m.Snapshot, m.Floor, m.Fog = f.file(lm.Snapshot), f.file(lm.Floor), f.file(lm.Fog)
	if m.Image != "" {
		if w, h, ok := imageSize(f.fsys, strings.TrimPrefix(m.Image, f.prefix+"/")); ok {
			m.Width, m.Height = w, h
		}
	}
	var notes []string
	for _, mk := range lm.Markers {
		m.Markers = append(m.Markers, core.Object{"id": core.NewID(), "label": mk.Label, "color": first(mk.Color, "#ff0000"),
			"shape": first(mk.Shape, "pin"), "size": first(mk.Size, "medium"), "name": mk.Name, "descr": "",
			"reference": mk.Content.Ref, "hidden": mk.Hidden, "locked": mk.Locked, "x": mk.X, "y": mk.Y})
	}
	for _, t := range lm.Tiles {
		m.Tiles = append(m.Tiles, f.tile(t))
	}
	for _, l := range lm.Lights {
		m.Lights = append(m.Lights, legacyLight(l))
	}
	for _, w := range lm.Walls {
		m.Walls = append(m.Walls, legacyWall(w))
	}
	for _, d := range lm.Drawings {
		m.Drawings = append(m.Drawings, legacyDrawing(d))
	}
	if lm.Canvas != "" {
		canvas, err := f.canvas(lm.Canvas)
		if err != nil {
			return nil, nil, err
		}
		if canvas != nil {
			for _, w := range canvas.Walls {
				m.Walls = append(m.Walls, legacyWall(w))
			}
			for _, d := range canvas.Drawings {
				m.Drawings = append(m.Drawings, legacyDrawing(d))
			}
			if canvas.Skipped > 0 {
				notes = append(notes, fmt.Sprintf("map '%s': %d %s of its canvas could not be read and %s left out",
					m.Name, canvas.Skipped, plural(canvas.Skipped, "drawing", "drawings"), plural(canvas.Skipped, "was", "were")))
			}
		}
	}
	for _, t := range lm.Tokens {
		m.Tokens = append(m.Tokens, f.token(t, entityFor))
	}
	if m.Width == 0 && m.Image != "" {
		notes = append(notes, fmt.Sprintf("map '%s': the size of its image could not be read", m.Name))
	}
	if err := m.Normalize(); err != nil {
		return nil, nil, err
	}
	for _, t := range m.Tokens {
		t.Normalize()
		t.MapID = m.ID
	}
	return m, notes, nil
}

// canvas reads a map's canvas SVG and removes it from the archive's folder
// (nil when the archive lacks it).
func (f *legacyFiles) canvas(ref string) (*legacyxml.Canvas, error) {
	rel, err := content.RelativeRef(strings.TrimPrefix(strings.TrimSpace(ref), "/"))
	if err != nil {
		f.missing = append(f.missing, ref)
		return nil, nil
	}
	file, err := f.fsys.Open(rel)
	if err != nil {
		f.missing = append(f.missing, ref)
		return nil, nil
	}
	defer file.Close()
	c, err := legacyxml.ReadCanvas(file, rel, f.limits)
	if err != nil {
		return nil, xmlError(err)
	}
	return c, nil
}

// canvasFiles are the canvas SVGs of maps, to remove from the folder once
// read.
func canvasFiles(maps []*legacyxml.Map) []string {
	var out []string
	for _, m := range maps {
		if rel, err := content.RelativeRef(strings.TrimPrefix(strings.TrimSpace(m.Canvas), "/")); m.Canvas != "" && err == nil {
			out = append(out, rel)
		}
	}
	return out
}

func (f *legacyFiles) tile(t legacyxml.Tile) core.Object {
	opacity := 1.0
	if t.Opacity != nil {
		opacity = *t.Opacity
	}
	o := core.Object{"id": first(t.ID, core.NewID()), "x": t.X, "y": t.Y, "width": t.Width, "height": t.Height,
		"rotation": t.Rotation, "opacity": opacity, "scale": 1.0, "layer": first(t.Layer, "object"), "zIndex": t.ZIndex,
		"hidden": t.Hidden, "locked": t.Locked, "components": legacyComponents(t.Components)}
	if t.Asset != nil {
		o["asset"] = f.asset(*t.Asset)
	}
	if t.Light != nil {
		l := legacyLight(*t.Light)
		l.X, l.Y = t.X, t.Y
		o["light"] = l
	}
	return o
}

// asset is a tile's or token's artwork as the map's JSON holds it.
func (f *legacyFiles) asset(a legacyxml.Asset) core.Object {
	return core.Object{"id": first(a.ID, core.NewID()), "name": a.Name, "slug": legacySlug(a.Slug, a.Name), "type": first(a.Type, "image"),
		"resource": f.file(a.Resource), "parameters": assetParameters(a), "components": []any{}, "rank": 0,
		"tags": splitTags(a.Tags), "parentId": ""}
}

func assetParameters(a legacyxml.Asset) core.Object {
	p := core.Object{}
	if a.Size != "" {
		p["size"] = a.Size
	}
	if a.FrameWidth > 0 {
		p["frameWidth"] = a.FrameWidth
	}
	if a.FrameHeight > 0 {
		p["frameHeight"] = a.FrameHeight
	}
	if a.Duration > 0 {
		p["duration"] = a.Duration
	}
	if a.Scale > 0 {
		p["scale"] = a.Scale
	}
	if a.GridAlign {
		p["gridAlign"] = true
	}
	return p
}

func splitTags(s string) []string {
	tags := []string{}
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	return tags
}

func legacyComponents(list []legacyxml.Component) []any {
	out := []any{}
	for _, c := range list {
		o := core.Object{"type": c.Type, "enabled": c.Enabled == nil || *c.Enabled}
		for k, v := range c.Params {
			if n, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
				o[k] = n
			} else {
				o[k] = v
			}
		}
		out = append(out, o)
	}
	return out
}

func legacyLight(l legacyxml.Light) core.Light {
	out := core.Light{ID: first(l.ID, core.NewID()), Enabled: l.Enabled == nil || *l.Enabled, RadiusMin: l.RadiusMin, RadiusMax: l.RadiusMax,
		Color: first(l.Color, "#ffffff"), Opacity: 0.5, AlwaysVisible: l.AlwaysVisible, X: l.X, Y: l.Y}
	if l.Opacity != nil {
		out.Opacity = *l.Opacity
	}
	return out
}

func legacyWall(w legacyxml.Wall) core.Wall {
	out := core.Wall{ID: first(w.ID, core.NewID()), Data: w.Points, Color: w.Color, Type: w.Type, Side: w.Side, Door: w.Door, Generated: w.Generated}
	if out.Type == "" {
		out.Type = core.WallNormal
	}
	if out.IsDoor() && out.Door == "" {
		out.Door = core.DoorClosed
	}
	if !out.IsDoor() {
		out.Door = ""
	}
	return out
}

func legacyDrawing(d legacyxml.Drawing) core.Object {
	o := core.Object{"id": first(d.ID, core.NewID()), "data": d.Points, "shape": first(d.Shape, "polygon"), "layer": first(d.Layer, "object"),
		"strokeWidth": d.StrokeWidth, "strokeColor": d.StrokeColor}
	if d.FillColor != "" {
		o["fillColor"] = d.FillColor
	}
	if d.Opacity != nil {
		o["opacity"] = *d.Opacity
	}
	return o
}

// tokenSizes are the legacy size letters as footprints in cells.
var tokenSizes = map[string]float64{"T": 0.5, "S": 1, "M": 1, "L": 2, "H": 3, "G": 4, "C": 6}

func (f *legacyFiles) token(t legacyxml.Token, entityFor func(ref string) *string) *core.Token {
	tok := &core.Token{ID: t.ID, Name: t.Name, X: t.X, Y: t.Y, Hidden: t.Hidden, Scale: t.Scale, Rotation: t.Rotation,
		Elevation: t.Elevation, Reference: t.Reference, Role: core.RoleHostile}
	w, h := 1.0, 1.0
	if cells, ok := tokenSizes[strings.ToUpper(strings.TrimSpace(t.Size))]; ok {
		w, h = cells, cells
	} else if a, b, ok := strings.Cut(strings.ToLower(t.Size), "x"); ok {
		if x, err := strconv.ParseFloat(a, 64); err == nil && x > 0 && x <= 100 {
			w = x
		}
		if y, err := strconv.ParseFloat(b, 64); err == nil && y > 0 && y <= 100 {
			h = y
		}
	}
	tok.Width, tok.Height = w, h
	if t.Asset != nil {
		tok.Asset = f.asset(*t.Asset)
		if img, _ := tok.Asset["resource"].(string); img != "" {
			tok.Image = &img
		}
	}
	if v := t.Vision; v != nil {
		tok.Vision = &core.Vision{ID: first(v.ID, core.NewID()), Enabled: v.Enabled == nil || *v.Enabled,
			Light: v.Light != nil && *v.Light, LightRadiusMin: v.LightRadiusMin, LightRadiusMax: v.LightRadiusMax, LightColor: "#ffffff", LightOpacity: 0.5,
			Dark: v.Dark != nil && *v.Dark, DarkRadiusMin: v.DarkRadiusMin, DarkRadiusMax: v.DarkRadiusMax}
		if v.LightOpacity != nil {
			tok.Vision.LightOpacity = *v.LightOpacity
		}
	}
	if t.Reference != "" {
		tok.EntityID = entityFor(t.Reference)
	}
	if tok.Name == "" {
		tok.Name = core.NameFromReference(t.Reference)
	}
	return tok
}

// sortRank reads a legacy sort attribute as a rank; fallback when absent.
func sortRank(sort string, fallback int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(sort)); err == nil && n >= -1e6 && n <= 1e6 {
		return n
	}
	return fallback
}

// legacySlug is a slug as written, made URL-safe (lower case, hyphens),
// or one made from the name.
func legacySlug(written, name string) string {
	if s := core.Slugify(written); s != "" {
		return s
	}
	return core.Slugify(name)
}

func first(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}
