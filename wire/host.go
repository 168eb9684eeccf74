package wire

import (
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core/turns"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/backup"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/sound"
)

// The host API (/host/api, the loopback listener the game master's
// console and tools use) described once: a row per operation, with the Go
// types its handler reads and writes. HostDocument turns the rows into
// the OpenAPI document served at /host/api/openapi.json, and tsgen turns
// its components into the host console's types (web/client/src/host/
// types.gen.ts). A test walks the router and fails on a route without a
// row, or a row without a route (routes/host_openapi_test.go).

// HostRoute is one operation of the host API.
type HostRoute struct {
	Method, Path string
	Tag          string
	Summary      string
	// Body is a zero value of the type the handler decodes (nil: none;
	// Multipart: a form upload with a 'file' field). BodyOptional: an
	// empty body is accepted.
	Body         any
	BodyOptional bool
	// Answer is a zero value of the type of the success answer (nil: no
	// body); Status its status (0: 200).
	Answer any
	Status int
	// Zip: the answer is a zip archive, streamed.
	Zip bool
}

// Multipart marks a body that is a multipart/form-data upload.
type Multipart struct{}

// anyObject is an answer the system shapes (an entity, the system
// document): described as an object.
type anyObject map[string]any

// objectOrList is a body or answer that is one object or a list of them
// (map objects are added one or many at once).
type objectOrList []any

// HostRoutes lists every operation of the host API.
var HostRoutes = []HostRoute{
	// The game system and the campaign.
	{Method: "GET", Path: "/host/api/system", Tag: "system", Summary: "The loaded game system, its kinds and its last reload", Answer: HostSystem{}},
	{Method: "GET", Path: "/host/api/system/definitions", Tag: "system", Summary: "The loaded system's document (as GET /api/system)", Answer: anyObject{}},
	{Method: "GET", Path: "/host/api/entities/{collection}", Tag: "system", Summary: "Every entity of a collection, hidden ones included", Answer: []anyObject{}},
	{Method: "GET", Path: "/host/api/entities/{collection}/{id}", Tag: "system", Summary: "One entity", Answer: anyObject{}},
	{Method: "GET", Path: "/host/api/campaign", Tag: "campaign", Summary: "The primary campaign as the console shows it: maps, screen, game, turn order", Answer: core.HostCampaign{}},
	{Method: "GET", Path: "/host/api/campaigns", Tag: "campaign", Summary: "Every campaign", Answer: []imports.CampaignSummary{}},
	{Method: "GET", Path: "/host/api/campaigns/{id}/export", Tag: "campaign", Summary: "A campaign as an archive", Zip: true},

	// Maps and the player screen.
	{Method: "GET", Path: "/host/api/maps", Tag: "maps", Summary: "Every map of the campaigns and modules", Answer: []imports.MapSummary{}},
	{Method: "POST", Path: "/host/api/maps", Tag: "maps", Summary: "A new map of the primary campaign", Body: core.NewMap{}, Answer: core.Map{}, Status: http.StatusCreated},
	{Method: "GET", Path: "/host/api/maps/{id}", Tag: "maps", Summary: "One map, everything on it", Answer: core.Map{}},
	{Method: "PATCH", Path: "/host/api/maps/{id}", Tag: "maps", Summary: "Rename a map, or set its line of sight, daylight and vision limit", Body: mapobjects.MapChange{}, Answer: core.Map{}},
	{Method: "DELETE", Path: "/host/api/maps/{id}", Tag: "maps", Summary: "Delete a map, its tokens and its files", Status: http.StatusNoContent},
	{Method: "GET", Path: "/host/api/maps/{id}/uvtt", Tag: "maps", Summary: "The map as a Universal VTT file (.dd2vtt): walls, doors, lights and its picture", Answer: anyObject{}},
	{Method: "GET", Path: "/host/api/maps/{id}/grid", Tag: "maps", Summary: "The map's grid and how it fits the picture", Answer: mapobjects.GridPreview{}},
	{Method: "PUT", Path: "/host/api/maps/{id}/grid", Tag: "maps", Summary: "Set the map's grid", Body: mapobjects.GridChange{}, Answer: mapobjects.GridPreview{}},
	{Method: "POST", Path: "/host/api/maps/{id}/grid/preview", Tag: "maps", Summary: "How a grid would fit, without keeping it", Body: mapobjects.GridChange{}, Answer: mapobjects.GridPreview{}},
	// The map's objects, one path for every kind (core/mapkinds.go): {kind}
	// is the map field's name (walls, lights, markers, drawings,
	// areaEffects, measurements, tiles); an object is the original's shape
	// of that kind, so the body and answer are objects.
	{Method: "GET", Path: "/host/api/maps/{mapId}/{kind}", Tag: "maps", Summary: "Every object of one kind on a map", Answer: []anyObject{}},
	{Method: "POST", Path: "/host/api/maps/{mapId}/{kind}", Tag: "maps", Summary: "Add an object of the kind, or a list of them (all or none)", Body: objectOrList{}, Answer: objectOrList{}, Status: http.StatusCreated},
	{Method: "PATCH", Path: "/host/api/maps/{mapId}/{kind}/{objectId}", Tag: "maps", Summary: "Change an object (JSON merge patch)", Body: anyObject{}, Answer: anyObject{}},
	{Method: "DELETE", Path: "/host/api/maps/{mapId}/{kind}/{objectId}", Tag: "maps", Summary: "Delete an object", Status: http.StatusNoContent},
	{Method: "POST", Path: "/host/api/maps/{mapId}/doors/{wallId}", Tag: "maps", Summary: "Open, close or lock a door", Body: DoorState{}, Answer: DoorChanged{}},
	{Method: "POST", Path: "/host/api/maps/{mapId}/fog", Tag: "maps", Summary: "Paint the fog of war, or turn it on or off", Body: FogChange{}, Answer: FogState{}},
	{Method: "POST", Path: "/host/api/maps/{mapId}/tokens", Tag: "tokens", Summary: "Place a token on a map", Body: core.PlaceToken{}, Answer: core.Token{}, Status: http.StatusCreated},
	{Method: "PATCH", Path: "/host/api/tokens/{id}", Tag: "tokens", Summary: "Change a token (JSON merge patch)", Body: anyObject{}, Answer: core.Token{}},
	{Method: "DELETE", Path: "/host/api/tokens/{id}", Tag: "tokens", Summary: "Remove a token", Status: http.StatusNoContent},
	{Method: "POST", Path: "/host/api/drags/{tokenId}/block", Tag: "tokens", Summary: "Stop a player's drag: every client snaps the token (or the mark being moved) back", Answer: DragBlocked{}},
	{Method: "POST", Path: "/host/api/screen", Tag: "screen", Summary: "Put a map on the player screen (an empty id clears it)", Body: MapChoice{}, Answer: core.Screen{}},
	{Method: "POST", Path: "/host/api/screen/fit", Tag: "screen", Summary: "Displays fit the screen map in their view", Answer: Done{}},
	{Method: "POST", Path: "/host/api/screen/focus", Tag: "screen", Summary: "Displays draw attention to a point", Body: core.Focus{}, Answer: Done{}},
	{Method: "POST", Path: "/host/api/screen/frame", Tag: "screen", Summary: "Displays look at a part of the screen map", Body: core.Frame{}, Answer: core.Frame{}},
	{Method: "PATCH", Path: "/host/api/screen/overlay", Tag: "screen", Summary: "Show an image or text over the screen", Body: core.ScreenOverlay{}, Answer: core.Screen{}},
	{Method: "DELETE", Path: "/host/api/screen/overlay", Tag: "screen", Summary: "Take the overlay down", Answer: core.Screen{}},
	{Method: "PUT", Path: "/host/api/screen/vision", Tag: "screen", Summary: "Whose sight players see: the party's, the acting one's or each seat's own", Body: SharedVision{}, Answer: core.Screen{}},
	{Method: "POST", Path: "/host/api/screen/handout", Tag: "screen", Summary: "Upload an image and show it over the screen", Body: Multipart{}, Answer: core.Screen{}},

	// Combat.
	{Method: "POST", Path: "/host/api/game/{action}", Tag: "combat", Summary: "Start, next, previous or end combat; pass ({to}: the combatant who acts next, when the system's turns are passed)", Body: turns.TurnPass{}, BodyOptional: true, Answer: GameControl{}},
	{Method: "POST", Path: "/host/api/combatants", Tag: "combat", Summary: "Add combatants to the game", Body: NewCombatants{}, Answer: []*core.Combatant{}, Status: http.StatusCreated},
	{Method: "POST", Path: "/host/api/combatants/initiative", Tag: "combat", Summary: "Roll initiative for combatants (none named: every one without)", Body: CombatantChoice{}, BodyOptional: true, Answer: GameControl{}},
	{Method: "POST", Path: "/host/api/combatants/initiative/ask", Tag: "combat", Summary: "Ask the players of combatants to roll initiative", Body: CombatantChoice{}, BodyOptional: true, Answer: core.InitiativeRequest{}},
	{Method: "PATCH", Path: "/host/api/combatants/{id}", Tag: "combat", Summary: "Change a combatant (JSON merge patch)", Body: anyObject{}, Answer: core.Combatant{}},
	{Method: "DELETE", Path: "/host/api/combatants/{id}", Tag: "combat", Summary: "Remove a combatant from the game", Status: http.StatusNoContent},
	{Method: "PUT", Path: "/host/api/combatants/{id}/initiative", Tag: "combat", Summary: "Set a combatant's initiative (null clears it)", Body: InitiativeValue{}, Answer: core.Combatant{}},
	{Method: "POST", Path: "/host/api/combatants/{id}/hitpoints", Tag: "combat", Summary: "Damage, healing or temporary hit points by the system's rules", Body: core.HitPointChange{}, Answer: core.Combatant{}},
	{Method: "POST", Path: "/host/api/combatants/{id}/effects", Tag: "combat", Summary: "Add a condition or effect", Body: core.StatusEffect{}, Answer: core.Combatant{}},
	{Method: "DELETE", Path: "/host/api/combatants/{id}/effects/{effectId}", Tag: "combat", Summary: "Remove a condition or effect", Answer: core.Combatant{}},

	// Seats, the join key and connected clients.
	{Method: "GET", Path: "/host/api/seats", Tag: "seats", Summary: "Every seat, who holds it and the clients sitting there", Answer: []HostSeatRow{}},
	{Method: "POST", Path: "/host/api/seats/{id}/assign", Tag: "seats", Summary: "Give a seat to a connected client", Body: SeatAssignment{}, Answer: core.SeatView{}},
	{Method: "POST", Path: "/host/api/seats/{id}/free", Tag: "seats", Summary: "Free a seat", Answer: []HostSeatRow{}},
	{Method: "PUT", Path: "/host/api/seats/{id}/controls", Tag: "seats", Summary: "The tokens a seat moves", Body: SeatControls{}, Answer: []HostSeatRow{}},
	{Method: "PUT", Path: "/host/api/seats/{id}/map", Tag: "seats", Summary: "Put a seat on a map of its own (a split party), or back on the player screen's with null", Body: core.SeatMapChange{}, Answer: []HostSeatRow{}},
	{Method: "GET", Path: "/host/api/join", Tag: "seats", Summary: "The join key and the links to share", Answer: HostJoin{}},
	{Method: "PATCH", Path: "/host/api/join", Tag: "seats", Summary: "Turn the join key on or off", Body: JoinKeySwitch{}, Answer: HostJoin{}},
	{Method: "POST", Path: "/host/api/join/new-key", Tag: "seats", Summary: "New keys: every pass and link made before stops working", Answer: HostJoin{}},
	{Method: "GET", Path: "/host/api/clients", Tag: "clients", Summary: "The connected WebSocket clients, with address, role and seat", Answer: []hub.HostClient{}},
	{Method: "PATCH", Path: "/host/api/clients/{channel}", Tag: "clients", Summary: "Make a client a player or a spectator", Body: ClientRole{}, Answer: ClientRole{}},
	{Method: "POST", Path: "/host/api/clients/{channel}/kick", Tag: "clients", Summary: "Close a client's connection and end its device's passes and seats", Answer: core.Kicked{}},

	// Messages, tables and the journal.
	{Method: "GET", Path: "/host/api/messages", Tag: "messages", Summary: "The last messages, whispers included", Answer: []*core.Message{}},
	{Method: "POST", Path: "/host/api/messages", Tag: "messages", Summary: "Post as the game master (a roll when the text is a formula); private or to seats", Body: HostMessage{}, Answer: core.Message{}, Status: http.StatusCreated},
	{Method: "GET", Path: "/host/api/tables", Tag: "tables", Summary: "Every random table", Answer: []*core.Table{}},
	{Method: "POST", Path: "/host/api/tables", Tag: "tables", Summary: "Add or replace a random table", Body: core.Table{}, Answer: core.Table{}, Status: http.StatusCreated},
	{Method: "GET", Path: "/host/api/tables/{id}", Tag: "tables", Summary: "One random table", Answer: core.Table{}},
	{Method: "POST", Path: "/host/api/tables/{id}/roll", Tag: "tables", Summary: "Roll on a table (private to the game master unless told)", Body: TableRollRequest{}, BodyOptional: true, Answer: core.TableRolled{}},
	{Method: "GET", Path: "/host/api/journal", Tag: "journal", Summary: "Everything shown to the table, taken-back entries included", Answer: core.Journal{}},
	{Method: "POST", Path: "/host/api/journal/{id}/show", Tag: "journal", Summary: "Show a journal entry again", Answer: core.JournalEntry{}},
	{Method: "POST", Path: "/host/api/journal/{id}/revoke", Tag: "journal", Summary: "Take a journal entry back from the players", Answer: core.JournalEntry{}},

	// Sound: the audio library, playlists and what plays (package sound).
	{Method: "POST", Path: "/host/api/audio", Tag: "sound", Summary: "Upload a sound file (Ogg Vorbis or Opus, MP3, M4A/AAC, WAV, FLAC), checked by its content", Body: Multipart{}, Answer: sound.Track{}, Status: http.StatusCreated},
	{Method: "GET", Path: "/host/api/audio", Tag: "sound", Summary: "Every sound file of the library, oldest first", Answer: []sound.Track{}},
	{Method: "PATCH", Path: "/host/api/audio/{id}", Tag: "sound", Summary: "Rename a sound file or set its tags", Body: sound.TrackChange{}, Answer: sound.Track{}},
	{Method: "DELETE", Path: "/host/api/audio/{id}", Tag: "sound", Summary: "Delete a sound file; what played it stops", Status: http.StatusNoContent},
	{Method: "POST", Path: "/host/api/audio/modules/{id}", Tag: "sound", Summary: "Add an installed module's sound files to the library (checked by content, tagged with the module's id; those already there left out)", Answer: sound.Added{}},
	{Method: "GET", Path: "/host/api/playlists", Tag: "sound", Summary: "Every playlist", Answer: []sound.Playlist{}},
	{Method: "POST", Path: "/host/api/playlists", Tag: "sound", Summary: "A new playlist", Body: sound.Playlist{}, Answer: sound.Playlist{}, Status: http.StatusCreated},
	{Method: "PUT", Path: "/host/api/playlists/{id}", Tag: "sound", Summary: "Replace a playlist (a playing one takes its volume and fade at once)", Body: sound.Playlist{}, Answer: sound.Playlist{}},
	{Method: "DELETE", Path: "/host/api/playlists/{id}", Tag: "sound", Summary: "Delete a playlist; it stops", Status: http.StatusNoContent},
	{Method: "GET", Path: "/host/api/sound", Tag: "sound", Summary: "The playback state", Answer: sound.State{}},
	{Method: "PUT", Path: "/host/api/sound/screens", Tag: "sound", Summary: "Which screens play: all, displays or none", Body: sound.ScreensChange{}, Answer: sound.State{}},
	{Method: "POST", Path: "/host/api/sound/{playlist}", Tag: "sound", Summary: "Play, pause, resume, skip, seek or stop a playlist", Body: sound.Control{}, Answer: sound.State{}},

	// The library: modules' pages and encounters.
	{Method: "GET", Path: "/host/api/library", Tag: "library", Summary: "The libraries: the campaign's and each module's", Answer: []core.LibrarySummary{}},
	{Method: "GET", Path: "/host/api/library/{owner}", Tag: "library", Summary: "One library: its pages, groups, encounters and maps", Answer: core.Library{}},
	{Method: "GET", Path: "/host/api/pages/{id}", Tag: "library", Summary: "A page as the game master reads it", Answer: core.PageView{}},
	{Method: "POST", Path: "/host/api/pages/{id}/show", Tag: "library", Summary: "Show a page (or a section of it) to the players", Body: core.ShowPage{}, BodyOptional: true, Answer: core.PageShown{}},
	{Method: "DELETE", Path: "/host/api/pages/{id}/show", Tag: "library", Summary: "Stop showing a page", Answer: core.PageShown{}},
	{Method: "POST", Path: "/host/api/pages/{id}/map", Tag: "library", Summary: "Put a page's map on the player screen", Body: MapChoice{}, BodyOptional: true, Answer: core.Screen{}},
	{Method: "GET", Path: "/host/api/encounters/{id}", Tag: "library", Summary: "An encounter, each creature with the entity it names", Answer: EncounterView{}},
	{Method: "POST", Path: "/host/api/encounters/{id}/run", Tag: "library", Summary: "Place an encounter's creatures and add them to the game", Body: core.RunEncounter{}, BodyOptional: true, Answer: core.EncounterRun{}, Status: http.StatusCreated},

	// Content: offers, imports, modules, the installed web client.
	{Method: "GET", Path: "/host/api/offers", Tag: "content", Summary: "Content offered by players and links, waiting for the game master", Answer: []imports.Offer{}},
	{Method: "POST", Path: "/host/api/offers", Tag: "content", Summary: "Offer content by link, manifest or URL", Body: OfferRequest{}, Answer: imports.Offer{}, Status: http.StatusCreated},
	{Method: "GET", Path: "/host/api/offers/{id}", Tag: "content", Summary: "One offer and its progress", Answer: imports.Offer{}},
	{Method: "DELETE", Path: "/host/api/offers/{id}", Tag: "content", Summary: "Dismiss an offer", Status: http.StatusNoContent},
	{Method: "POST", Path: "/host/api/offers/{id}/accept", Tag: "content", Summary: "Install an offer (progress on the offer)", Body: OfferAcceptance{}, BodyOptional: true, Answer: imports.Offer{}, Status: http.StatusAccepted},
	{Method: "POST", Path: "/host/api/offers/{id}/decline", Tag: "content", Summary: "Decline an offer", Answer: imports.Offer{}},
	{Method: "POST", Path: "/host/api/offers/{id}/retry", Tag: "content", Summary: "Try a failed offer again", Answer: imports.Offer{}},
	{Method: "POST", Path: "/host/api/import", Tag: "content", Summary: "Import a file (multipart 'file') or a URL ({url}) now", Body: ImportRequest{}, Answer: imports.Result{}, Status: http.StatusCreated},
	{Method: "GET", Path: "/host/api/imports", Tag: "content", Summary: "Imports running now", Answer: []imports.Activity{}},
	{Method: "GET", Path: "/host/api/modules", Tag: "content", Summary: "Installed modules", Answer: []*core.Module{}},
	{Method: "POST", Path: "/host/api/modules/check-updates", Tag: "content", Summary: "Ask each module's manifest for a newer version", Answer: []imports.Update{}},
	{Method: "POST", Path: "/host/api/modules/{id}/update", Tag: "content", Summary: "Install a module's newer version", Answer: imports.Result{}},
	{Method: "DELETE", Path: "/host/api/modules/{id}", Tag: "content", Summary: "Delete a module and its files", Status: http.StatusNoContent},
	{Method: "GET", Path: "/host/api/modules/{id}/export", Tag: "content", Summary: "A module as an archive", Zip: true},
	{Method: "GET", Path: "/host/api/client", Tag: "content", Summary: "The installed web client, if any", Answer: imports.ClientInfo{}},
	{Method: "POST", Path: "/host/api/client", Tag: "content", Summary: "Install a web client from its zip (multipart 'file')", Body: Multipart{}, Answer: imports.ClientInfo{}, Status: http.StatusCreated},
	{Method: "DELETE", Path: "/host/api/client", Tag: "content", Summary: "Remove the installed web client", Answer: imports.ClientInfo{}},

	// This description.
	{Method: "GET", Path: "/host/api/openapi.json", Tag: "meta", Summary: "This document", Answer: anyObject{}},

	// Settings and backups.
	{Method: "GET", Path: "/host/api/settings", Tag: "settings", Summary: "The server's settings", Answer: anyObject{}},
	{Method: "PATCH", Path: "/host/api/settings", Tag: "settings", Summary: "Change settings", Body: anyObject{}, Answer: anyObject{}},
	{Method: "GET", Path: "/host/api/backups", Tag: "settings", Summary: "The backups made", Answer: []backup.Entry{}},
	{Method: "POST", Path: "/host/api/backups", Tag: "settings", Summary: "Make a backup now (into the data folder, or an absolute folder)", Body: BackupRequest{}, BodyOptional: true, Answer: backup.Result{}, Status: http.StatusCreated},
}

// HostDocument is the OpenAPI 3.1 description of the host API.
func HostDocument() ([]byte, error) {
	return json.Marshal(hostDocument())
}

var pathParamPattern = regexp.MustCompile(`\{([^}]+)\}`)

func hostDocument() obj {
	names := wireNames()
	components := obj{"Error": obj{"type": "object", "required": []string{"message"}, "additionalProperties": false, "properties": obj{"message": obj{"type": "string"}}}}
	// A named Go type used by a row becomes a component of its name; the
	// public shapes keep theirs (Map, Token, Combatant...).
	public := map[reflect.Type]bool{}
	for t := range names {
		public[t] = true
	}
	// Names that would be unclear or taken twice (imports' and backup's
	// Result) are given here.
	for t, n := range map[reflect.Type]string{
		reflect.TypeFor[imports.Result](): "ImportResult", reflect.TypeFor[backup.Result](): "BackupResult",
		reflect.TypeFor[backup.Entry](): "BackupEntry", reflect.TypeFor[imports.Update](): "ModuleUpdate",
	} {
		names[t] = n
	}
	var pending []reflect.Type
	name := func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t.Name() == "" {
			return
		}
		if _, ok := names[t]; !ok {
			names[t] = t.Name()
		}
		if !slices.Contains(pending, t) && !public[t] && t != reflect.TypeFor[Multipart]() {
			pending = append(pending, t)
		}
	}
	for _, r := range HostRoutes {
		for _, v := range []any{r.Body, r.Answer} {
			if v != nil {
				name(reflect.TypeOf(v))
			}
		}
	}
	paths := obj{}
	for _, r := range HostRoutes {
		item, _ := paths[r.Path].(obj)
		if item == nil {
			item = obj{}
			var params []obj
			for _, m := range pathParamPattern.FindAllStringSubmatch(r.Path, -1) {
				params = append(params, obj{"name": m[1], "in": "path", "required": true, "schema": obj{"type": "string"}})
			}
			if params != nil {
				item["parameters"] = params
			}
			paths[r.Path] = item
		}
		item[strings.ToLower(r.Method)] = hostOperation(r, names)
	}
	// Every struct the rows name, and every struct those hold, described
	// from its Go type (shapes.go's rules).
	for _, s := range wireShapes {
		schema := structSchema(reflect.TypeOf(s.value), s.name, names)
		schema["description"] = s.descr
		components[s.name] = schema
	}
	components["RollResult"], components["Hidden"], components["HiddenToken"] = rollResultSchema, hiddenSchema, hiddenTokenSchema
	for len(pending) > 0 {
		t := pending[0]
		pending = pending[1:]
		collectStructs(t, names, &pending)
		components[names[t]] = structSchema(t, names[t], names)
	}
	tags := map[string]bool{}
	for _, r := range HostRoutes {
		tags[r.Tag] = true
	}
	var tagList []obj
	for _, t := range slices.Sorted(maps.Keys(tags)) {
		tagList = append(tagList, obj{"name": t})
	}
	return obj{
		"openapi": "3.1.0",
		"info": obj{
			"title":   "Companion host API",
			"version": core.Version,
			"description": "The game master's API, on the host listener only (loopback by default): everything players never see, and the changes only the game master makes. " +
				"No authentication: whoever reaches the host listener is the game master. Errors are {\"message\"}. " +
				"The host console's live socket is GET /host/ws: the events of /api/openapi.json's x-events, unredacted.",
		},
		"tags":       tagList,
		"paths":      paths,
		"components": obj{"schemas": components},
	}
}

// collectStructs names the named structs t holds (fields, elements) so
// that each becomes one component, referred to wherever it appears.
func collectStructs(t reflect.Type, names map[reflect.Type]string, pending *[]reflect.Type) {
	var visit func(t reflect.Type, top bool)
	seen := map[reflect.Type]bool{}
	visit = func(t reflect.Type, top bool) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t == timeType {
			return
		}
		seen[t] = true
		if !top && t.Name() != "" {
			if _, ok := names[t]; !ok {
				names[t] = uniqueName(t, names)
				*pending = append(*pending, t)
			}
			return
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Tag.Get("json") == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			// An embedded struct's fields are the holder's own.
			visit(f.Type, f.Anonymous && f.Tag.Get("json") == "")
		}
	}
	visit(t, true)
}

// uniqueName is a component name for t: its Go name, or with its
// package's name before it when another type took the name.
func uniqueName(t reflect.Type, names map[reflect.Type]string) string {
	for _, n := range names {
		if n == t.Name() {
			pkg := t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:]
			return TypeName(pkg) + t.Name()
		}
	}
	return t.Name()
}

func hostOperation(r HostRoute, names map[reflect.Type]string) obj {
	status := r.Status
	if status == 0 {
		status = http.StatusOK
	}
	id := strings.ToLower(r.Method) + TypeName(strings.NewReplacer("/host/api/", "", "/", "_", "{", "by_", "}", "", "-", "_").Replace(r.Path))
	op := obj{"operationId": id, "summary": r.Summary, "tags": []string{r.Tag}}
	var answer obj
	switch {
	case r.Zip:
		answer = obj{"description": "The archive", "content": obj{"application/zip": obj{"schema": obj{"type": "string", "contentEncoding": "binary"}}}}
	case r.Answer == nil:
		answer = obj{"description": "Done"}
	default:
		answer = response("Done", hostSchema(reflect.TypeOf(r.Answer), names))
	}
	op["responses"] = obj{strconv.Itoa(status): answer, "default": errorResponse("The request was refused: {\"message\"} says why (400 bad input, 404 unknown id, 409 conflict, 413 too large)")}
	switch r.Body.(type) {
	case nil:
	case Multipart:
		op["requestBody"] = obj{"required": true, "content": obj{"multipart/form-data": obj{"schema": obj{"type": "object", "required": []string{"file"},
			"properties": obj{"file": obj{"type": "string", "contentEncoding": "binary"}}}}}}
	default:
		content := jsonContent(hostSchema(reflect.TypeOf(r.Body), names))
		if _, ok := r.Body.(ImportRequest); ok {
			content["multipart/form-data"] = obj{"schema": obj{"type": "object", "properties": obj{"file": obj{"type": "string", "contentEncoding": "binary"}, "destination": obj{"type": "string"}}}}
		}
		op["requestBody"] = obj{"required": !r.BodyOptional, "content": content}
	}
	return op
}

// hostSchema is the schema of a row's body or answer: a reference to its
// component, a list of them, or a plain object.
func hostSchema(t reflect.Type, names map[reflect.Type]string) obj {
	switch t {
	case reflect.TypeFor[anyObject]():
		return obj{"type": "object"}
	case reflect.TypeFor[objectOrList]():
		return obj{"oneOf": []obj{{"type": "object"}, arrayOf(obj{"type": "object"})}}
	}
	if t.Kind() == reflect.Slice {
		return arrayOf(hostSchema(t.Elem(), names))
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return typeSchema(t, false, names)
}
