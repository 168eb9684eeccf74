package redact

import "github.com/vttapp/companion/core"

// What players and the game master receive of an event. The core decides
// it all: whether players get an event at all, and the payload each side
// gets. The hub only encodes the payloads it is handed (PlayersPayload,
// HostPayload), once per side.

// Views is an event payload that players and the game master see
// differently. The host console's live socket gets Host; players get
// Players, which ForPlayers still redacts as every player payload. A nil
// Players means the event is for the game master alone (a private roll,
// the drag of a hidden token); a nil Host means the host gets what
// players get.
//
// Most events need no Views: their payload is the whole object and
// ForPlayers redacts it for players (a hidden token as {id, hidden}).
// Views is for payloads the core itself must build for players, such as a
// game whose creature list is computed without the hidden combatants.
type Views struct {
	Players any
	Host    any
	// Seats, when not nil, narrows Players to the connections holding
	// one of these seats (the hashes of their seat tokens): a whisper
	// (whisper.go). Every other player receives nothing.
	Seats []string
	// Map, when not empty, is the map the event is about: players receive
	// it only when they look at that map (a split party, seatmaps.go).
	// EventMap finds it in most payloads; Map names it where the payload
	// does not (a list of sights, a pointer).
	Map string
}

// EventMap returns the map an event's data is about, "" when it is about
// no map in particular: Views.Map, else the map a token, a map, a list of
// a map's tokens, a fog image, a movement or a map object list names (the
// players' payload first, then the host's). The hub hands an event that
// names a map only to the players looking at that map.
func EventMap(data any) string {
	v, ok := data.(Views)
	if !ok {
		return payloadMap(data)
	}
	if v.Map != "" {
		return v.Map
	}
	if id := payloadMap(v.Players); id != "" {
		return id
	}
	return payloadMap(v.Host)
}

// payloadMap is the map one payload names.
func payloadMap(data any) string {
	switch v := data.(type) {
	case *core.Token:
		if v != nil {
			return v.MapID
		}
	case tokenOnMap:
		return v.MapID
	case *core.Map:
		if v != nil {
			return v.ID
		}
	case *core.MapTokens:
		if v != nil {
			return v.MapID
		}
	case *core.FogImage:
		if v != nil {
			return v.ID
		}
	case *core.Movement:
		if v != nil {
			return v.MapID
		}
	case *core.ScreenMap:
		if v != nil {
			return v.ID
		}
	case *core.Frame:
		if v != nil {
			return v.ID
		}
	case core.Object:
		id, _ := v["mapId"].(string)
		return id
	}
	return ""
}

// HostOnly wraps a payload only the game master may receive.
func HostOnly(data any) Views { return Views{Host: data} }

// PlayersView returns the payload players receive from an event's data
// before ForPlayers redacts it: Views.Players, or the data itself. Tests
// and other subscribers that read what players get use it.
func PlayersView(data any) any {
	if v, ok := data.(Views); ok {
		return v.Players
	}
	return data
}

// HostView returns the payload the game master receives.
func HostView(data any) any {
	if v, ok := data.(Views); ok {
		if v.Host == nil {
			return v.Players
		}
		return v.Host
	}
	return data
}

// PlayersSeats returns the seats an event's players payload is for, nil
// when it is for every player (Views.Seats).
func PlayersSeats(data any) []string {
	if v, ok := data.(Views); ok {
		return v.Seats
	}
	return nil
}

// PlayersPayload is what players receive of an event's data, ready to
// encode, and whether they receive it at all (Views with no Players is for
// the game master alone).
func PlayersPayload(data any) (any, bool) {
	if v, ok := data.(Views); ok {
		if v.Players == nil {
			return nil, false
		}
		return ForPlayers(v.Players), true
	}
	return ForPlayers(data), true
}

// HostPayload is what the game master receives of an event's data, ready
// to encode: HostView, with a token sent alone naming its map.
func HostPayload(data any) any { return onMap(HostView(data)) }

// HostPayloadDiffers reports whether the game master's payload of an
// event may differ from the players': a Views, or a type ForPlayers may
// change. Where it does not, one encoding serves both.
func HostPayloadDiffers(data any) bool {
	switch v := data.(type) {
	case Views:
		// Without a Host of its own, the host gets the players' payload:
		// it differs only as that payload's type may (a pointer does not).
		return v.Host != nil || HostPayloadDiffers(v.Players)
	case *core.Token, *core.Combatant, *core.Game, []*core.Combatant, *core.Map, []*core.Token, *core.Entity, core.Client:
		return true
	}
	return false
}

// hiddenStub is what players learn of a hidden token or combatant they
// saw before: that it is hidden, so a client showing it can drop it, and
// nothing else.
type hiddenStub struct {
	ID     string `json:"id"`
	Hidden bool   `json:"hidden"`
}

// hiddenToken is what players learn of a hidden token they saw before:
// hiddenStub with an empty size, which reads as one cell. The Encounter+
// web client replaces the token it holds with whatever tokenUpdated
// carries and sizes it before it finds it hidden: without a size it
// throws (three times a hide) instead of dropping the token. An empty
// size tells nothing of the token (a name, an image, a place or its real
// size would).
type hiddenToken struct {
	hiddenStub
	Size string `json:"size"`
}

// ForPlayers returns an event's payload (or a reply's) as players may see
// it: a hidden token as {id, hidden, size: ""} (hiddenToken), a hidden
// combatant as {id, hidden}; a token sent alone as
// TokenForPlayers shows it, naming its map; a combatant as
// CombatantForPlayers; a game without its hidden combatants and their
// turns (GameForPlayers); a map without its hidden objects (PlayerMap); a
// list without its hidden tokens or combatants; an entity without its notes
// (EntityForPlayers); a client without its address (ClientForPlayers). The WebSocket clients of
// the public listener are players and player displays (the game master
// uses the host console), so this is applied to everything they receive,
// the same rules GET /api follows. data is never changed. Whether players
// receive an event at all is decided where it is made (Views).
func ForPlayers(data any) any {
	switch v := data.(type) {
	case *core.Token:
		if v != nil && v.Hidden {
			return hiddenToken{hiddenStub: hiddenStub{ID: v.ID, Hidden: true}}
		}
		return onMap(TokenForPlayers(v))
	case *core.Combatant:
		if v != nil && v.Hidden {
			return hiddenStub{ID: v.ID, Hidden: true}
		}
		return CombatantForPlayers(v)
	case *core.Game:
		if v != nil {
			return GameForPlayers(v)
		}
	case []*core.Combatant:
		if v != nil {
			return playerCombatants(v)
		}
	case *core.Map:
		return PlayerMap(v)
	case []*core.Token:
		if tokensHaveHidden(v) || tokensHaveSecrets(v) {
			return visibleTokens(v)
		}
	case *core.Entity:
		return EntityForPlayers(v)
	case core.Client:
		return ClientForPlayers(v)
	}
	return data
}

// tokenOnMap is a token sent alone (tokenUpdated, the answer to
// updateToken) with the map it stands on, an extension beside the
// contract's Token: a page showing another map ignores it. Token.MapID is
// not part of the published token, so it is added here.
type tokenOnMap struct {
	*core.Token
	MapID string `json:"mapId,omitempty"`
}

// onMap names the map of a token sent alone; any other payload is
// returned as it is.
func onMap(data any) any {
	if t, ok := data.(*core.Token); ok && t != nil {
		return tokenOnMap{Token: t, MapID: t.MapID}
	}
	return data
}
