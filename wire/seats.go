package wire

// The seats and a player's own character in the OpenAPI description
// (api_seats.go), and the join key's ways in.

import "github.com/vttapp/companion/core/turns"

var joinKeySchemes = obj{
	"joinKeyHeader": obj{"type": "apiKey", "in": "header", "name": JoinKeyHeader, "description": "The join key, when the game master turned it on"},
	"joinKeyQuery":  obj{"type": "apiKey", "in": "query", "name": JoinKeyQuery, "description": "The join key in the query string (links, WebSocket URLs)"},
	"pass":          obj{"type": "apiKey", "in": "cookie", "name": PassCookie, "description": "The pass a browser gets when it opens a page with ?key="},
}

// seatHeaderParam names the seat a request plays.
var seatHeaderParam = obj{"name": SeatHeader, "in": "header", "description": "The seat token takeSeat answered (or the companion_seat cookie a seat link sets)",
	"schema": obj{"type": "string"}}

func seatOp(id, summary string, body obj, answer obj, errs ...string) obj {
	op := obj{"operationId": id, "summary": summary, "tags": []string{"seats"}, "parameters": []obj{seatHeaderParam},
		"responses": obj{"200": response("Done", answer), "401": errorResponse("The join key is on and the request has none, or an old one")}}
	for i := 0; i+1 < len(errs); i += 2 {
		op["responses"].(obj)[errs[i]] = errorResponse(errs[i+1])
	}
	if body != nil {
		op["requestBody"] = obj{"required": false, "content": jsonContent(body)}
	}
	return op
}

func addSeatPaths(paths, schemas obj) {
	str, num, boolean := obj{"type": "string"}, obj{"type": "number"}, obj{"type": "boolean"}
	schemas["SeatView"] = obj{"type": "object", "required": []string{"id", "name", "kind", "taken"},
		"properties": obj{"id": str, "name": str, "kind": str, "image": str, "taken": boolean, "player": str}}
	schemas["SeatList"] = obj{"type": "object", "properties": obj{"seats": arrayOf(ref("SeatView"))}}
	schemas["TakenSeat"] = obj{"type": "object", "properties": obj{"seat": ref("SeatView"), "seatToken": str}}
	schemas["HitPoints"] = obj{"type": "object", "properties": obj{"key": str, "title": str, "current": num, "max": num, "temp": num, "bloodied": boolean, "defeated": boolean}}
	schemas["Action"] = obj{"type": "object", "properties": obj{"id": str, "title": str, "type": str, "roll": str, "group": str,
		"options": obj{"type": "array", "items": str, "description": "the ids of the roll options (rollOptions) this action takes"},
		"follow":  obj{"type": "string", "description": "the action rolled after this one when asked (follow)"}}}
	schemas["Tally"] = obj{"type": "object", "required": []string{"key", "title", "marks", "most", "shown"}, "properties": obj{"key": str, "title": str,
		"marks": arrayOf(ref("RollOption")), "most": num, "shown": obj{"type": "string", "enum": []string{"always", "down"}}}}
	schemas["RollOption"] = obj{"type": "object", "required": []string{"id", "title"}, "properties": obj{"id": str, "title": str}}
	schemas["CharacterSheet"] = obj{"type": "object", "properties": obj{"seat": ref("SeatView"), "character": obj{"type": "object"},
		"reference": str, "combatant": obj{"type": []string{"object", "null"}}, "tokenIds": arrayOf(str), "controls": arrayOf(str),
		"hitPoints": obj{"oneOf": []obj{ref("HitPoints"), {"type": "null"}}}, "effects": arrayOf(obj{"type": "object"}),
		"editable": arrayOf(str), "hitPointsEditable": boolean, "actions": arrayOf(ref("Action")), "rollOptions": arrayOf(ref("RollOption")),
		"tallies":    arrayOf(ref("Tally")),
		"initiative": obj{"type": []string{"number", "null"}}, "myTurn": boolean, "round": num,
		"turns":  obj{"type": "string", "enum": []string{turns.TurnsByInitiative, turns.TurnsPassed}, "description": "how the system's combat passes turns"},
		"passTo": arrayOf(obj{"type": "object", "properties": obj{"id": str, "name": str}, "description": "whom the acting player may pass the turn to"})}}
	schemas["Journal"] = obj{"type": "object", "required": []string{"entries"}, "properties": obj{"entries": arrayOf(obj{"type": "object",
		"required": []string{"id", "kind", "title", "shown"}, "properties": obj{
			"id": str, "kind": obj{"type": "string", "enum": []string{"page", "image", "handout"}}, "title": str,
			"url": str, "pageId": str, "section": str, "text": str, "shown": obj{"type": "string", "format": "date-time"},
			"revoked": obj{"type": "boolean", "description": "the host console's only: the game master took it back"}}})}}
	schemas["ActionResult"] = obj{"type": "object", "properties": obj{"messages": arrayOf(obj{"type": "object"}),
		"outcome": obj{"oneOf": []obj{ref("RollOption"), {"type": "null"}}, "description": "what the game system named the roll, null when nothing"}}}
	forbidden := []string{"403", "A spectator, no seat, a seat that was freed, or a change the system does not let players make"}

	paths["/api/seats"] = obj{"get": obj{"operationId": "getSeats", "summary": "The seats: which are free, who sits where (names only)", "tags": []string{"seats"},
		"responses": obj{"200": response("The seat list", ref("SeatList")), "404": errorResponse("No primary campaign")}}}
	paths["/api/seats/{id}/take"] = obj{"parameters": []obj{idParam}, "post": seatOp("takeSeatByID", "Take a free seat: the answer's seat token is the only copy",
		obj{"type": "object", "properties": obj{"player": str}}, ref("TakenSeat"), "404", "No such seat", "409", "Taken by someone else", "403", "A spectator or a display")}
	paths["/api/me/journal"] = obj{"get": seatOp("getJournal", "What the game master showed the table, oldest first (the handout journal)", nil, ref("Journal"))}
	paths["/api/me"] = obj{"get": seatOp("getMe", "The requester's role and seat", nil, obj{"type": "object", "properties": obj{"role": str, "seat": obj{"oneOf": []obj{ref("SeatView"), {"type": "null"}}}, "joinKey": obj{"type": "boolean"}}})}
	paths["/api/me/leave"] = obj{"post": seatOp("leaveSeat", "Free one's seat", nil, nil, "404", "No seat held")}
	paths["/api/me/character"] = obj{
		"get":   seatOp("getOwnCharacter", "One's character sheet", nil, ref("CharacterSheet"), forbidden...),
		"patch": seatOp("patchOwnCharacter", "Change the editable data of one's character: {\"data\": {...}}", obj{"type": "object"}, obj{"type": "object"}, forbidden...),
	}
	paths["/api/me/hitpoints"] = obj{"post": seatOp("changeHitPoints", "Damage, healing or temporary hit points, by the game master's rules",
		obj{"type": "object", "properties": obj{"damage": num, "healing": num, "temp": num}}, ref("HitPoints"), forbidden...)}
	paths["/api/me/actions/{action}"] = obj{"parameters": []obj{{"name": "action", "in": "path", "required": true, "schema": str}},
		"post": seatOp("rollAction", "Roll one of the sheet's actions into the chat",
			obj{"type": "object", "properties": obj{"options": arrayOf(str), "follow": boolean, "private": boolean}},
			ref("ActionResult"), forbidden...)}
	paths["/api/me/initiative"] = obj{"post": seatOp("rollInitiative", "Roll one's initiative and enter the turn order", nil, ref("ActionResult"), "409", "Not in the game, or rolled already")}
	paths["/api/me/end-turn"] = obj{"post": seatOp("endTurn", "End one's turn (body optional: {to}, whom to pass it to, when turns are passed)",
		obj{"type": "object", "properties": obj{"to": obj{"type": "string"}}}, ref("Game"), "409", "Not one's turn, or the one named has acted this round")}
}
