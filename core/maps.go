package core

// Map is a battle map. Tokens are stored as their own rows (they move many
// times a second) and assembled into Tokens when a map is read whole.
type Map struct {
	ID             string   `json:"id"`
	Name           string   `json:"name"`
	Slug           string   `json:"slug"`
	Descr          string   `json:"descr"`
	GridSize       int      `json:"gridSize"`
	GridOffsetX    int      `json:"gridOffsetX"`
	GridOffsetY    int      `json:"gridOffsetY"`
	GridColor      string   `json:"gridColor"`
	GridVisible    bool     `json:"gridVisible"`
	GridScale      float64  `json:"gridScale"`
	GridUnits      string   `json:"gridUnits"`
	GridType       string   `json:"gridType"`
	GridStyle      string   `json:"gridStyle"`
	GridOpacity    float64  `json:"gridOpacity"`
	Image          string   `json:"image,omitempty"`
	Video          string   `json:"video,omitempty"`
	Scale          float64  `json:"scale"`
	X              float64  `json:"x"`
	Y              float64  `json:"y"`
	Zoom           float64  `json:"zoom"`
	Width          int      `json:"width"`
	Height         int      `json:"height"`
	Canvas         string   `json:"canvas,omitempty"`
	Snapshot       string   `json:"snapshot,omitempty"`
	Floor          string   `json:"floor,omitempty"`
	FogOfWar       bool     `json:"fogOfWar"`
	FogExploration bool     `json:"fogExploration"`
	Fog            string   `json:"fog,omitempty"`
	LineOfSight    bool     `json:"lineOfSight"`
	LosDaylight    float64  `json:"losDaylight"`
	LosVisionLimit int      `json:"losVisionLimit"`
	WeatherType    string   `json:"weatherType,omitempty"`
	WeatherIntens  float64  `json:"weatherIntensity"`
	DmDarkness     float64  `json:"dmDarkness"`
	DmMarkerStyle  string   `json:"dmMarkerStyle,omitempty"`
	ParentID       string   `json:"parentId"`
	Rank           int      `json:"rank"`
	Version        int      `json:"version"`
	Walls          []Wall   `json:"walls"`
	Drawings       []Object `json:"drawings"`
	Markers        []Object `json:"markers"`
	Tiles          []Object `json:"tiles"`
	Tokens         []*Token `json:"tokens"`
	AreaEffects    []Object `json:"areaEffects"`
	Lights         []Light  `json:"lights"`
	Measurements   []Object `json:"measurements"`
	// Sounds are this server's ambient sounds (package sound plays them):
	// absent when there are none, so the contract's map is unchanged.
	Sounds []Object `json:"sounds,omitempty"`
	Data   Object   `json:"data,omitempty"`
	// GridPending marks a map made from an image or a video whose grid
	// the game master has not set yet: it stays off the player screen
	// until then (grid.go). Players never see such a map, so never this.
	GridPending bool `json:"gridPending,omitempty"`

	// Owner is the module or campaign that owns the map; Revision increases
	// on every write. Neither is part of the published shape.
	Owner    string `json:"-"`
	Revision int64  `json:"-"`
}

// Normalize fills the defaults a map always carries.
func (m *Map) Normalize() error {
	if m.Name == "" {
		return Invalidf("map: name is required")
	}
	if m.ID == "" {
		m.ID = NewID()
	}
	if m.Slug == "" {
		m.Slug = Slugify(m.Name)
	}
	if m.GridSize <= 0 {
		m.GridSize = 70
	}
	if m.GridColor == "" {
		m.GridColor = "#000000"
	}
	if m.GridScale == 0 {
		m.GridScale = 5
	}
	if m.GridUnits == "" {
		m.GridUnits = "ft"
	}
	if m.GridType == "" {
		m.GridType = "square"
	}
	if m.GridStyle == "" {
		m.GridStyle = "solid"
	}
	if m.Scale == 0 {
		m.Scale = 1
	}
	if m.Zoom == 0 {
		m.Zoom = 1
	}
	if m.Version == 0 {
		m.Version = 1
	}
	if m.Walls == nil {
		m.Walls = []Wall{}
	}
	if m.Drawings == nil {
		m.Drawings = []Object{}
	}
	if m.Markers == nil {
		m.Markers = []Object{}
	}
	if m.Tiles == nil {
		m.Tiles = []Object{}
	}
	if m.Tokens == nil {
		m.Tokens = []*Token{}
	}
	if m.AreaEffects == nil {
		m.AreaEffects = []Object{}
	}
	if m.Lights == nil {
		m.Lights = []Light{}
	}
	if m.Measurements == nil {
		m.Measurements = []Object{}
	}
	return nil
}

// Wall types and door states.
const (
	WallNormal     = "normal"
	WallInvisible  = "invisible"
	WallEthereal   = "ethereal"
	WallTerrain    = "terrain"
	WallDoor       = "door"
	WallSecretDoor = "secretDoor"
	// WallWindow is a portal that lets light through (a Universal VTT portal
	// with closed=false). It blocks movement like a wall but not sight.
	WallWindow = "window"

	DoorClosed = "closed"
	DoorOpen   = "open"
	DoorLocked = "locked"
)

// Wall is a polyline that blocks vision and/or movement; doors are walls
// with a door state.
type Wall struct {
	ID        string    `json:"id"`
	Data      []float64 `json:"data"`
	Color     string    `json:"color,omitempty"`
	Type      string    `json:"type,omitempty"`
	Side      string    `json:"side,omitempty"`
	Door      string    `json:"door,omitempty"`
	Generated bool      `json:"generated,omitempty"`
}

// IsDoor reports whether the wall can be opened and closed.
func (w Wall) IsDoor() bool { return w.Type == WallDoor || w.Type == WallSecretDoor }

// BlocksSight reports whether the wall currently blocks line of sight.
func (w Wall) BlocksSight() bool {
	switch w.Type {
	case WallInvisible, WallWindow, WallTerrain:
		return false
	case WallDoor, WallSecretDoor:
		return w.Door != DoorOpen
	default:
		return true
	}
}

// Light is a standalone light source on a map.
type Light struct {
	ID            string  `json:"id"`
	Enabled       bool    `json:"enabled"`
	RadiusMin     float64 `json:"radiusMin"`
	RadiusMax     float64 `json:"radiusMax"`
	Color         string  `json:"color"`
	Opacity       float64 `json:"opacity"`
	AlwaysVisible bool    `json:"alwaysVisible"`
	X             float64 `json:"x"`
	Y             float64 `json:"y"`
	Sight         any     `json:"sight"`
}

// Token is a piece on the battle map.
type Token struct {
	ID         string     `json:"id"`
	Name       string     `json:"name,omitempty"`
	Label      string     `json:"label,omitempty"`
	Role       string     `json:"role,omitempty"`
	X          float64    `json:"x"`
	Y          float64    `json:"y"`
	Scale      float64    `json:"scale"`
	Width      float64    `json:"width"`
	Height     float64    `json:"height"`
	Style      string     `json:"style,omitempty"`
	Rotation   float64    `json:"rotation"`
	Elevation  float64    `json:"elevation"`
	Hidden     bool       `json:"hidden"`
	Locked     bool       `json:"locked,omitempty"`
	Asset      Object     `json:"asset,omitempty"`
	Vision     *Vision    `json:"vision,omitempty"`
	Reference  string     `json:"reference,omitempty"`
	Auras      []Object   `json:"auras"`
	EntityID   *string    `json:"entityId"`
	TrackingID *int       `json:"trackingId,omitempty"`
	Image      *string    `json:"image"`
	Path       []any      `json:"path,omitempty"`
	Combatant  *Combatant `json:"combatant,omitempty"`
	Player     bool       `json:"player"`

	// Derived for players (service_creatures.go), never stored: size from
	// width/height, and the linked combatant's health, hitpoints, bloodied
	// and dead, as the real web client reads them.
	Size      string   `json:"size,omitempty"`
	Health    *float64 `json:"health,omitempty"`
	Hitpoints *float64 `json:"hitpoints,omitempty"`
	Bloodied  *bool    `json:"bloodied,omitempty"`
	Dead      *bool    `json:"dead,omitempty"`

	// MapID is the map the token stands on; Revision increases on every
	// write. Neither is part of the published shape.
	MapID    string `json:"-"`
	Revision int64  `json:"-"`
}

// Normalize fills the defaults a token always carries.
func (t *Token) Normalize() {
	if t.ID == "" {
		t.ID = NewID()
	}
	if t.Scale == 0 {
		t.Scale = 1
	}
	if t.Width == 0 {
		t.Width = 1
	}
	if t.Height == 0 {
		t.Height = 1
	}
	if t.Auras == nil {
		t.Auras = []Object{}
	}
}

// Vision is a token's sight and carried light.
type Vision struct {
	ID             string  `json:"id"`
	Enabled        bool    `json:"enabled"`
	Light          bool    `json:"light"`
	LightRadiusMin float64 `json:"lightRadiusMin"`
	LightRadiusMax float64 `json:"lightRadiusMax"`
	LightColor     string  `json:"lightColor"`
	LightOpacity   float64 `json:"lightOpacity"`
	Dark           bool    `json:"dark"`
	DarkRadiusMin  float64 `json:"darkRadiusMin"`
	DarkRadiusMax  float64 `json:"darkRadiusMax"`
	Sight          any     `json:"sight"`
}
