package wire

import (
	"html/template"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/sight"
	"github.com/vttapp/companion/systems"
)

// The host API's own answers and request bodies: the handlers in routes
// write and read these types, and the host description (host.go) is
// derived from them, so neither can drift from the other.

// SystemKind is a row of the system status: a kind, its collection, and
// its ranges (the first is its health key, which the console's combat
// rows and token card read: the console names none of its own).
type SystemKind struct {
	Kind            string   `json:"kind"`
	Collection      string   `json:"collection"`
	Title           string   `json:"title"`
	CollectionTitle string   `json:"collectionTitle"`
	Unique          bool     `json:"unique"`
	Ranges          []string `json:"ranges"`
}

// HostSystem is GET /host/api/system.
type HostSystem struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Version     string       `json:"version"`
	Description string       `json:"description,omitempty"`
	Author      string       `json:"author,omitempty"`
	Kinds       []SystemKind `json:"kinds"`
	// Turns is how the system's combat passes turns: "initiative" or
	// "passed" (config combat.turns; the console draws its combat card by it).
	Turns string `json:"turns"`
	// HealthLabel is the short word health shows under ("HP" in D&D 5e:
	// the first bar's label of config.entities.Default.combatant).
	HealthLabel string `json:"healthLabel"`
	// Diagonal is how a ruler counts a diagonal step on a square grid
	// (config.measurement.diagonal; the GM map's ruler counts by it), ""
	// when the system does not say.
	Diagonal string `json:"diagonal,omitempty"`
	// Watching is the folder hot reload watches ("" when the system is
	// the embedded one).
	Watching   string                `json:"watching"`
	LastReload *systems.ReloadResult `json:"lastReload"`
	Time       time.Time             `json:"time"`
}

// GameControl is the answer of POST /host/api/game/{action} and of the
// initiative roll: the game with every combatant and its turn order.
type GameControl struct {
	Game      *core.Game      `json:"game"`
	TurnOrder []core.TurnSlot `json:"turnOrder"`
}

// HostSeatRow is a seat as GET /host/api/seats lists it: the seat, the
// tokens it controls, and the channels of the clients sitting there.
type HostSeatRow struct {
	core.HostSeat
	Clients []int `json:"clients"`
}

// HostJoin is the join key's state with the links a game master shares.
type HostJoin struct {
	core.JoinStatus
	// PlayerLink and SpectatorLink open the web client with the key;
	// empty while the key is off (then ClientLink is the link).
	ClientLink      string       `json:"clientLink"`
	PlayerLink      string       `json:"playerLink,omitempty"`
	SpectatorLink   string       `json:"spectatorLink,omitempty"`
	PlayerLinkQR    template.URL `json:"playerLinkQR,omitempty"`
	SpectatorLinkQR template.URL `json:"spectatorLinkQR,omitempty"`
	ClientLinkQR    template.URL `json:"clientLinkQR,omitempty"`
}

// EncounterCreatureView is an encounter's entry with the entity it names
// (entityId, or missing when none is installed).
type EncounterCreatureView struct {
	core.EncounterCreature
	Resolved string `json:"resolvedEntityId,omitempty"`
	Missing  bool   `json:"missing,omitempty"`
}

// EncounterView is GET /host/api/encounters/{id}.
type EncounterView struct {
	*core.Encounter
	Combatants []EncounterCreatureView `json:"combatants"`
}

// DoorChanged is the answer of POST /host/api/maps/{mapId}/doors/{wallId}:
// the door's new state and the sight it changed.
type DoorChanged struct {
	MapID  string        `json:"mapId"`
	ID     string        `json:"id"`
	State  string        `json:"state"`
	Sights []sight.Sight `json:"sights"`
}

// FogState is the answer of POST /host/api/maps/{mapId}/fog.
type FogState struct {
	ID       string `json:"id"`
	FogOfWar bool   `json:"fogOfWar"`
	Fog      string `json:"fog"`
}

// ClientRole is PATCH /host/api/clients/{channel}'s body and answer.
type ClientRole struct {
	Role string `json:"role"`
}

// DragBlocked is the answer of POST /host/api/drags/{tokenId}/block:
// whether a drag was under way to stop.
type DragBlocked struct {
	Blocked bool `json:"blocked"`
}

// Done is the answer of an action with nothing else to say.
type Done struct {
	OK bool `json:"ok"`
}

// Request bodies of the host API, decoded strictly (an unknown key is a
// 400) unless the route says the body is optional.

// SeatControls: PUT /host/api/seats/{id}/controls.
type SeatControls struct {
	Tokens []string `json:"tokens"`
}

// JoinKeySwitch: PATCH /host/api/join.
type JoinKeySwitch struct {
	Enabled *bool `json:"enabled"`
}

// CombatantChoice: the combatants an initiative roll or request is for
// (none: every one).
type CombatantChoice struct {
	Combatants []string `json:"combatants"`
}

// SeatAssignment: POST /host/api/seats/{id}/assign.
type SeatAssignment struct {
	Channel int    `json:"channel"`
	Player  string `json:"player"`
}

// DoorState: POST /host/api/maps/{mapId}/doors/{wallId}.
type DoorState struct {
	State string `json:"state"`
}

// SharedVision: PUT /host/api/screen/vision; always, partial or never
// (core.SharedVisionAlways...).
type SharedVision struct {
	SharedVision string `json:"sharedVision"`
}

// HostMessage: POST /host/api/messages.
type HostMessage struct {
	Text     string `json:"text"`
	Creature string `json:"creature"`
	Color    string `json:"color"`
	Private  bool   `json:"private"`
	// To: the seats (character ids) to whisper to.
	To []string `json:"to"`
}

// MapChoice: POST /host/api/screen and /host/api/pages/{id}/map.
type MapChoice struct {
	MapID string `json:"mapId"`
}

// FogChange: POST /host/api/maps/{mapId}/fog: edits, and fog on or off.
type FogChange struct {
	core.FogEdit
	FogOfWar *bool `json:"fogOfWar"`
}

// NewCombatants: POST /host/api/combatants: a list, or one inline.
type NewCombatants struct {
	Combatants []core.NewCombatant `json:"combatants"`
	core.NewCombatant
}

// InitiativeValue: PUT /host/api/combatants/{id}/initiative (null clears).
type InitiativeValue struct {
	Value *float64 `json:"value"`
}

// BackupRequest: POST /host/api/backups (no folder: the data folder's own).
type BackupRequest struct {
	Folder string `json:"folder"`
}

// OfferRequest: POST /host/api/offers: a link, a manifest or a URL.
type OfferRequest struct {
	Link     string `json:"link"`
	Manifest string `json:"manifest"`
	URL      string `json:"url"`
	Type     string `json:"type"`
}

// OfferAcceptance: POST /host/api/offers/{id}/accept.
type OfferAcceptance struct {
	Destination string `json:"destination"`
}

// ImportRequest: POST /host/api/import as JSON (else a multipart file).
type ImportRequest struct {
	URL         string `json:"url"`
	Destination string `json:"destination"`
}

// TableRollRequest: POST /host/api/tables/{id}/roll (private by default).
type TableRollRequest struct {
	Private *bool `json:"private"`
}
