package core

// A seated player's own character: the sheet they read, their hit points
// (damage, healing, temporary hit points with the game master's rules),
// the data keys the system lets them write, the rolls of their sheet,
// their initiative and the end of their turn. Every method refuses a
// spectator and anyone without a seat; nothing here reaches another
// player's character.

// CharacterSheet is what the player holding a seat reads of their
// character (GET /api/me/character, getCharacter).
type CharacterSheet struct {
	Seat SeatView `json:"seat"`
	// Character is the stored entity, whole: it is the player's own.
	Character *Entity `json:"character"`
	// Reference is the sheet's page on this server: /<kind>/<slug>, the
	// system's template.
	Reference string `json:"reference"`
	// Combatant is the character's combatant in the game, as players see
	// it; null when it is in no game.
	Combatant *Combatant `json:"combatant"`
	// TokenIDs are the character's tokens on the map on the player screen
	// that players see; Controls the tokens the game master gave the seat
	// (those players see).
	TokenIDs []string `json:"tokenIds"`
	Controls []string `json:"controls"`
	// HitPoints is null when the kind keeps none.
	HitPoints *HitPoints `json:"hitPoints"`
	// Effects are the combatant's conditions and effects, with what is
	// left of them.
	Effects []EffectView `json:"effects"`
	// Editable lists the data keys the player may write (PATCH
	// /api/me/character); HitPointsEditable, whether they may apply damage,
	// healing and temporary hit points.
	Editable          []string `json:"editable"`
	HitPointsEditable bool     `json:"hitPointsEditable"`
	Actions           []Action `json:"actions"`
	// RollOptions are the options the kind's rolls offer (each action
	// lists those it takes).
	RollOptions []RollOption `json:"rollOptions"`
	// Tallies are the tracks the player marks on the sheet (SheetRules).
	Tallies []Tally `json:"tallies"`
	// Initiative is the combatant's first initiative value, null when not
	// rolled; MyTurn, that combat runs and it is this combatant's turn.
	Initiative *float64 `json:"initiative"`
	MyTurn     bool     `json:"myTurn"`
	Round      int      `json:"round"`
	// Turns is how the system's combat passes turns (TurnsByInitiative or
	// TurnsPassed); PassTo, on the acting player's sheet in a game whose
	// turns are passed, those the turn may go to (visible, not defeated,
	// not acted this round; empty when everyone else has acted: ending the
	// turn starts the next round).
	Turns  string     `json:"turns"`
	PassTo []TurnPick `json:"passTo,omitempty"`
}

// TurnPick is a combatant the turn may be passed to.
type TurnPick struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// HitPoints are a character's hit points as the sheet shows them.
type HitPoints struct {
	// Key is the data key of the current value ("hit_points" in D&D 5e);
	// the maximum is max_<key>, temporary hit points temp_<key>.
	Key string `json:"key"`
	// Title is what the system calls it ("Hit points"; "Health" when it
	// says nothing).
	Title    string  `json:"title"`
	Current  float64 `json:"current"`
	Max      float64 `json:"max"`
	Temp     float64 `json:"temp"`
	Bloodied bool    `json:"bloodied"`
	Defeated bool    `json:"defeated"`
}

// EffectView is a condition or effect on the character, with the rounds
// left (null when it lasts until removed).
type EffectView struct {
	ID              string   `json:"id"`
	Name            string   `json:"name"`
	Duration        float64  `json:"duration,omitempty"`
	DurationUnit    string   `json:"durationUnit,omitempty"`
	DurationType    string   `json:"durationType,omitempty"`
	RemainingRounds *float64 `json:"remainingRounds"`
}

// ActionRequest asks to roll one of the sheet's actions.
type ActionRequest struct {
	Action string `json:"action"`
	// Options are ids of the roll options the action offers (Action.Options),
	// passed to the system's roll hook; what they do is the system's.
	Options []string `json:"options"`
	// Follow, for an action with a follow-up (Action.Follow), rolls it
	// right after, with the options the first roll's outcome names.
	Follow bool `json:"follow"`
	// Private rolls to the game master only (whisper.go): the player and
	// the game master read it, nobody else.
	Private bool `json:"private"`
}

// ActionResult is what a roll posted: its messages (already broadcast),
// and the outcome the system named for the first roll (null when none).
type ActionResult struct {
	Messages []*Message `json:"messages"`
	Outcome  *Outcome   `json:"outcome"`
}

// InitiativeRequest names the combatants asked to roll and their seats
// (the characters' ids): a client rolls when its seat is listed.
type InitiativeRequest struct {
	Combatants []string `json:"combatants"`
	Seats      []string `json:"seats"`
}
