package uvtt

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/media"
)

// Extensions are the file extensions of Universal VTT maps.
var Extensions = []string{".uvtt", ".dd2vtt", ".df2vtt"}

type uvttPoint struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type uvttFile struct {
	Format             json.RawMessage  `json:"format"`
	Resolution         *uvttResolution  `json:"resolution"`
	LineOfSight        [][]uvttPoint    `json:"line_of_sight"`
	ObjectsLineOfSight [][]uvttPoint    `json:"objects_line_of_sight"`
	Portals            []uvttPortal     `json:"portals"`
	Environment        *uvttEnvironment `json:"environment"`
	Lights             []uvttLight      `json:"lights"`
	Image              string           `json:"image"`
}

type uvttResolution struct {
	MapOrigin     uvttPoint `json:"map_origin"`
	MapSize       uvttPoint `json:"map_size"`
	PixelsPerGrid float64   `json:"pixels_per_grid"`
}

type uvttPortal struct {
	Position     uvttPoint   `json:"position"`
	Bounds       []uvttPoint `json:"bounds"`
	Rotation     float64     `json:"rotation"`
	Closed       bool        `json:"closed"`
	Freestanding bool        `json:"freestanding"`
}

type uvttEnvironment struct {
	BakedLighting bool   `json:"baked_lighting"`
	AmbientLight  string `json:"ambient_light"`
}

type uvttLight struct {
	Position  uvttPoint `json:"position"`
	Range     float64   `json:"range"`
	Intensity float64   `json:"intensity"`
	Color     string    `json:"color"`
	Shadows   bool      `json:"shadows"`
}

// Map is a parsed Universal VTT file: the map and its background image.
type Map struct {
	Map *core.Map
	// Image is the decoded background; ImageExt its extension (".png",
	// ".webp" or ".jpg"), detected from the bytes.
	Image    []byte
	ImageExt string
}

// Largest map accepted, in pixels per side: a guard against a forged
// resolution that would make every later computation absurd.
const maxMapPixels = 1 << 16

// Parse reads a Universal VTT file (format 0.2 or 0.3). Geometry is
// moved by the map origin, scaled to pixels and clipped to the map; walls
// come from line_of_sight and objects_line_of_sight, doors (closed
// portals) and windows (open portals) from portals, lights with their ARGB
// colours turned into #rrggbb. name is the map's name.
func Parse(data []byte, name string) (*Map, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, core.Invalidf("not a Universal VTT map: the file must hold a JSON object")
	}
	var f uvttFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, core.Invalidf("not a valid Universal VTT map: %s", core.JSONErrorText(err))
	}
	if err := checkUVTTFormat(f.Format); err != nil {
		return nil, err
	}
	if f.Resolution == nil || f.Resolution.PixelsPerGrid <= 0 || f.Resolution.MapSize.X <= 0 || f.Resolution.MapSize.Y <= 0 {
		return nil, core.Invalidf("not a valid Universal VTT map: resolution needs a positive pixels_per_grid and map_size")
	}
	res := f.Resolution
	ppg := res.PixelsPerGrid
	width, height := res.MapSize.X*ppg, res.MapSize.Y*ppg
	if width > maxMapPixels || height > maxMapPixels || ppg > maxMapPixels {
		return nil, core.TooLargef("the map is %.0f x %.0f pixels; at most %d per side are accepted", width, height, maxMapPixels)
	}
	if ppg < 1 || width < 1 || height < 1 {
		return nil, core.Invalidf("not a valid Universal VTT map: it is smaller than one pixel (pixels_per_grid %g, map_size %g x %g)", ppg, res.MapSize.X, res.MapSize.Y)
	}
	if err := f.checkRanges(); err != nil {
		return nil, err
	}
	img, ext, err := decodeUVTTImage(f.Image)
	if err != nil {
		return nil, err
	}
	box := rect{w: width, h: height}
	toPixels := func(p uvttPoint) point {
		return point{(p.X - res.MapOrigin.X) * ppg, (p.Y - res.MapOrigin.Y) * ppg}
	}
	// X and Y stay 0: they are the viewport offset clients read (the centre
	// shown is x/zoom + width/2), so 0, 0 centres the whole map.
	m := &core.Map{
		Name:           name,
		GridSize:       int(math.Round(ppg)),
		Width:          int(math.Round(width)),
		Height:         int(math.Round(height)),
		LineOfSight:    true,
		GridVisible:    true,
		GridOpacity:    0.5,
		LosVisionLimit: -1,
		LosDaylight:    ambientDaylight(f.Environment),
	}
	for _, group := range [][][]uvttPoint{f.LineOfSight, f.ObjectsLineOfSight} {
		for _, line := range group {
			pts := make([]point, len(line))
			for i, p := range line {
				pts[i] = toPixels(p)
			}
			for _, piece := range box.clipPolyline(pts) {
				m.Walls = append(m.Walls, core.Wall{ID: core.NewID(), Data: flatten(piece), Type: core.WallNormal})
			}
		}
	}
	for _, p := range f.Portals {
		if len(p.Bounds) < 2 {
			continue
		}
		a, b, ok := box.clipSegment(toPixels(p.Bounds[0]), toPixels(p.Bounds[len(p.Bounds)-1]))
		if !ok {
			continue
		}
		w := core.Wall{ID: core.NewID(), Data: flatten([]point{a, b})}
		if p.Closed {
			w.Type, w.Door = core.WallDoor, core.DoorClosed
		} else {
			w.Type = core.WallWindow // lets light through, blocks movement
		}
		m.Walls = append(m.Walls, w)
	}
	for _, l := range f.Lights {
		pos := toPixels(l.Position)
		if !box.contains(pos) {
			continue
		}
		radius := l.Range * 5 // grid cells to feet, the map's default grid scale
		opacity := l.Intensity
		if opacity <= 0 || opacity > 1 {
			opacity = 1
		}
		m.Lights = append(m.Lights, core.Light{
			ID: core.NewID(), Enabled: true,
			RadiusMin: radius / 2, RadiusMax: radius,
			Color: argbToRGB(l.Color), Opacity: opacity,
			X: round2(pos.x), Y: round2(pos.y),
		})
	}
	if err := m.Normalize(); err != nil {
		return nil, err
	}
	return &Map{Map: m, Image: img, ImageExt: ext}, nil
}

// maxGridCoordinate bounds every coordinate and light range, in grid cells.
// Real maps stay within a few hundred cells; far larger numbers (1e308)
// would overflow to infinities and NaNs once scaled to pixels and clipped.
const maxGridCoordinate = 1e6

// checkRanges refuses coordinates and light ranges no map can have.
func (f *uvttFile) checkRanges() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.Abs(v) > maxGridCoordinate }
	badPoint := func(p uvttPoint) bool { return bad(p.X) || bad(p.Y) }
	if badPoint(f.Resolution.MapOrigin) {
		return core.Invalidf("not a valid Universal VTT map: map_origin (%g, %g) is out of range", f.Resolution.MapOrigin.X, f.Resolution.MapOrigin.Y)
	}
	for name, group := range map[string][][]uvttPoint{"line_of_sight": f.LineOfSight, "objects_line_of_sight": f.ObjectsLineOfSight} {
		for i, line := range group {
			for _, p := range line {
				if badPoint(p) {
					return core.Invalidf("not a valid Universal VTT map: %s line %d has a point (%g, %g) out of range", name, i+1, p.X, p.Y)
				}
			}
		}
	}
	for i, p := range f.Portals {
		for _, b := range append([]uvttPoint{p.Position}, p.Bounds...) {
			if badPoint(b) {
				return core.Invalidf("not a valid Universal VTT map: portal %d has a point (%g, %g) out of range", i+1, b.X, b.Y)
			}
		}
	}
	for i, l := range f.Lights {
		if badPoint(l.Position) || bad(l.Range) || l.Range < 0 {
			return core.Invalidf("not a valid Universal VTT map: light %d has a position (%g, %g) or range %g out of range", i+1, l.Position.X, l.Position.Y, l.Range)
		}
	}
	return nil
}

// checkUVTTFormat accepts the formats seen in the wild, 0.2 and 0.3 (and
// other 0.x); a missing, non-numeric or other format is refused.
func checkUVTTFormat(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return core.Invalidf("not a Universal VTT map: the 'format' field is missing")
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return core.Invalidf("not a Universal VTT map: 'format' must be a number such as 0.3, not %s", string(raw))
	}
	if v <= 0 || v >= 1 {
		return core.Invalidf("unsupported Universal VTT format %s: formats 0.2 and 0.3 are supported", string(raw))
	}
	return nil
}

// decodeUVTTImage decodes the base64 image and detects its type from its
// first bytes.
func decodeUVTTImage(s string) ([]byte, string, error) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ";base64,"); strings.HasPrefix(s, "data:") && i >= 0 {
		s = s[i+len(";base64,"):]
	}
	if s == "" {
		return nil, "", core.Invalidf("not a valid Universal VTT map: it has no image")
	}
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	img, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		img, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	}
	if err != nil {
		return nil, "", core.Invalidf("not a valid Universal VTT map: its image is not base64 image data")
	}
	ext := imageExt(img)
	if ext == "" {
		return nil, "", core.Invalidf("not a valid Universal VTT map: its image is neither PNG, WebP nor JPEG")
	}
	return img, ext, nil
}

// imageExt detects PNG, WebP and JPEG from magic bytes.
func imageExt(b []byte) string {
	switch f, _ := media.Sniff(b); f {
	case media.PNG, media.WebP, media.JPEG:
		return f.Ext
	}
	return ""
}

// argbToRGB turns "ffeccd8b" (alpha first) into "#eccd8b"; six digits are
// taken as RGB already. Anything else is white.
func argbToRGB(c string) string {
	c = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(c)), "#")
	if len(c) == 8 {
		c = c[2:]
	}
	if len(c) != 6 {
		return "#ffffff"
	}
	if _, err := strconv.ParseUint(c, 16, 32); err != nil {
		return "#ffffff"
	}
	return "#" + c
}

// ambientDaylight is the map's ambient light level, 0 dark to 1 daylight,
// from the brightest channel of the ARGB ambient colour.
func ambientDaylight(env *uvttEnvironment) float64 {
	if env == nil {
		return 1
	}
	rgb := argbToRGB(env.AmbientLight)
	max := uint64(0)
	for i := 1; i < 7; i += 2 {
		v, _ := strconv.ParseUint(rgb[i:i+2], 16, 8)
		if v > max {
			max = v
		}
	}
	return round2(float64(max) / 255)
}

// LooksLike reports whether data starts like a Universal VTT JSON
// document (an object with format and resolution near the start).
func LooksLike(data []byte) bool {
	head := data
	if len(head) > 4096 {
		head = head[:4096]
	}
	t := bytes.TrimSpace(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")))
	return len(t) > 0 && t[0] == '{' && (bytes.Contains(head, []byte(`"resolution"`)) || bytes.Contains(head, []byte(`"format"`)))
}
