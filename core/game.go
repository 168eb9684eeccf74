package core

// Roles of combatants and tokens. A missing role is treated as hostile.
const (
	RoleHostile  = "hostile"
	RoleFriendly = "friendly"
	RoleNeutral  = "neutral"
)

// Game is a campaign's initiative order and combat state. Each campaign owns
// exactly one.
type Game struct {
	Started      bool   `json:"started"`
	Round        int    `json:"round"`
	Turn         int    `json:"turn"`
	CombatantID  string `json:"combatantId,omitempty"`
	InitiativeID string `json:"initiativeId,omitempty"`
	// Acted lists the combatants that have taken their turn this round, in
	// a system whose turns are passed (TurnsPassed); empty otherwise.
	Acted      []string     `json:"acted,omitempty"`
	Combatants []*Combatant `json:"combatants"`
	// Creatures is the initiative list as the real web client reads it
	// (service_creatures.go): set on the game players receive, never stored.
	Creatures []Creature `json:"creatures"`
}

// GameTurn is gameUpdated when only the turn moved (combat started, passed
// a turn, ended): the game's turn without its lists. The real web client
// rebuilds its token views whenever a gameUpdated carries creatures, and it
// does so after it has marked the acting creature's token, so a turn change
// that repeated the list would wipe the turn highlight it just drew; the
// lists go out only when they change (Game).
type GameTurn struct {
	Started      bool     `json:"started"`
	Round        int      `json:"round"`
	Turn         int      `json:"turn"`
	CombatantID  string   `json:"combatantId,omitempty"`
	InitiativeID string   `json:"initiativeId,omitempty"`
	Acted        []string `json:"acted,omitempty"`
}

// TurnOf is g's turn without its lists.
func TurnOf(g *Game) *GameTurn {
	return &GameTurn{Started: g.Started, Round: g.Round, Turn: g.Turn, CombatantID: g.CombatantID, InitiativeID: g.InitiativeID, Acted: g.Acted}
}

// Combatant is an entry in the initiative order.
type Combatant struct {
	ID         string         `json:"id"`
	Label      string         `json:"label,omitempty"`
	Name       string         `json:"name,omitempty"`
	Role       string         `json:"role,omitempty"`
	Hidden     bool           `json:"hidden"`
	Notes      string         `json:"notes,omitempty"`
	Initiative []Initiative   `json:"initiative"`
	Data       Object         `json:"data,omitempty"`
	Attributes Object         `json:"attributes"`
	Reference  string         `json:"reference,omitempty"`
	Modifiers  []Modifier     `json:"modifiers"`
	Effects    []StatusEffect `json:"effects"`
	Bloodied   bool           `json:"bloodied"`
	Defeated   bool           `json:"defeated"`
	Player     bool           `json:"player"`
	Image      *string        `json:"image"`
	EntityID   string         `json:"entityId,omitempty"`
	EntityType string         `json:"entityType,omitempty"`
	TokenID    *string        `json:"tokenId"`

	// Campaign is the owning campaign; Rank orders the combatants of a game.
	// Revision increases on every write. None is part of the published shape.
	Campaign string `json:"-"`
	Rank     int    `json:"-"`
	Revision int64  `json:"-"`
}

// Normalize fills the defaults a combatant always carries.
func (c *Combatant) Normalize() {
	if c.ID == "" {
		c.ID = NewID()
	}
	if c.Initiative == nil {
		c.Initiative = []Initiative{}
	}
	if c.Attributes == nil {
		c.Attributes = Object{}
	}
	if c.Modifiers == nil {
		c.Modifiers = []Modifier{}
	}
	if c.Effects == nil {
		c.Effects = []StatusEffect{}
	}
}

// Initiative is one turn-order slot of a combatant.
type Initiative struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Value any    `json:"value"`
	Order int    `json:"order,omitempty"`
}

// StatusEffect is an active condition, buff or debuff.
type StatusEffect struct {
	ID           string     `json:"id"`
	Name         string     `json:"name,omitempty"`
	Type         string     `json:"type,omitempty"`
	Reference    string     `json:"reference,omitempty"`
	Duration     float64    `json:"duration,omitempty"`
	DurationUnit string     `json:"durationUnit,omitempty"`
	DurationType string     `json:"durationType,omitempty"`
	Descr        string     `json:"descr,omitempty"`
	Notes        string     `json:"notes,omitempty"`
	Color        string     `json:"color,omitempty"`
	Icon         string     `json:"icon,omitempty"`
	Source       string     `json:"source,omitempty"`
	RoundStart   int        `json:"roundStart,omitempty"`
	TurnStart    int        `json:"turnStart,omitempty"`
	Enabled      *bool      `json:"enabled,omitempty"`
	Data         Object     `json:"data,omitempty"`
	Attributes   Object     `json:"attributes"`
	Modifiers    []Modifier `json:"modifiers"`
}
