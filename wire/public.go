package wire

import (
	"encoding/json"
	"strings"

	"github.com/vttapp/companion/core"
)

// PublicDocument is the OpenAPI 3.1 description of the public API and its
// WebSocket with sys loaded (GET /api/openapi.json): its collections and
// entity kinds appear as concrete paths and schemas. A zero System gives
// the shapes that do not depend on a system (internal/tools/tsgen).
func PublicDocument(sys System) ([]byte, error) {
	return json.Marshal(publicDocument(sys))
}

type obj = map[string]any

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

func jsonContent(schema obj) obj {
	return obj{"application/json": obj{"schema": schema}}
}

func response(descr string, schema obj) obj {
	if schema == nil {
		return obj{"description": descr}
	}
	return obj{"description": descr, "content": jsonContent(schema)}
}

func errorResponse(descr string) obj { return response(descr, ref("Error")) }

func arrayOf(item obj) obj { return obj{"type": "array", "items": item} }

var idParam = obj{"name": "id", "in": "path", "required": true, "schema": obj{"type": "string"}}

// TypeName turns a kind name ("magic_item") into a schema name ("MagicItem").
func TypeName(kind string) string {
	var b strings.Builder
	for _, part := range strings.Split(kind, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// publicDocument builds the description of the public API for sys.
func publicDocument(sys System) obj {
	paths := obj{
		"/api": obj{"get": obj{
			"operationId": "getSnapshot", "summary": "Game state of the primary campaign", "tags": []string{"game"},
			"responses": obj{"200": response("The snapshot", ref("Snapshot")), "404": errorResponse("No primary campaign for the loaded system")},
		}},
		"/api/system": obj{"get": obj{
			"operationId": "getSystem", "summary": "The loaded game system, its collections and definitions", "tags": []string{"game"},
			"responses": obj{"200": response("The system document (ETag; 304 on If-None-Match)", ref("System")), "304": response("Not modified", nil)},
		}},
		"/api/clients": obj{"get": obj{
			"operationId": "getClients", "summary": "Clients connected over WebSocket", "tags": []string{"game"},
			"responses": obj{"200": response("Connected clients", arrayOf(ref("Client")))},
		}},
		"/api/sound": obj{"get": obj{
			"operationId": "getSound", "summary": "The table's playback state: what plays, from when on the server's clock (then soundUpdated)", "tags": []string{"game"},
			"responses": obj{"200": response("The playback state", ref("SoundState"))},
		}},
		"/api/-/live": obj{"get": obj{
			"operationId": "getLive", "summary": "The process answers HTTP", "tags": []string{"meta"},
			"responses": obj{"200": response("Alive", ref("Health"))},
		}},
		"/api/-/ready": obj{"get": obj{
			"operationId": "getReady", "summary": "The store answers and a game system is loaded", "tags": []string{"meta"},
			"responses": obj{"200": response("Ready", ref("Health")), "503": errorResponse("The store does not answer, or no system is loaded")},
		}},
		"/api/openapi.json": obj{"get": obj{
			"operationId": "getOpenAPI", "summary": "This description", "tags": []string{"meta"},
			"responses": obj{"200": response("OpenAPI 3.1 document", obj{"type": "object"})},
		}},
		"/api/messages": obj{"post": obj{
			"operationId": "createMessage", "summary": "Post to the shared log; dice expressions are rolled", "tags": []string{"messages"},
			"requestBody": obj{"required": true, "content": jsonContent(ref("MessageInput"))},
			"responses": obj{"200": response("The stored message with its rolls and campaign", ref("Message")),
				"400": errorResponse("The body does not parse as a message"), "404": errorResponse("No primary campaign"),
				"403": errorResponse("Sent by a page of another site (Origin)"),
				"413": errorResponse("Body, text or dice results over their limits"),
				"415": errorResponse("A body declared as anything but JSON")},
		}},
		"/api/import": obj{"post": obj{
			"operationId": "offerImport", "summary": "Offer content for import; the person at the device confirms", "tags": []string{"import"},
			"parameters": []obj{
				{"name": "manifest", "in": "query", "schema": obj{"type": "string", "format": "uri"}},
				{"name": "url", "in": "query", "schema": obj{"type": "string", "format": "uri"}},
			},
			"requestBody": obj{"required": false, "content": jsonContent(obj{"type": "object", "properties": obj{
				"manifest": obj{"type": "string", "format": "uri"}, "url": obj{"type": "string", "format": "uri"}}})},
			"responses": obj{
				"202": response("The import screen is shown on the device", obj{"type": "object", "properties": obj{"status": obj{"type": "string", "const": "accepted"}}}),
				"400": response("Malformed request", importErrorSchema),
				"403": response("Sent by a page of another site (Origin)", importErrorSchema),
				"415": response("A body declared as anything but JSON", importErrorSchema),
			},
		}},
		"/api/combatants/{id}": objectPaths("Combatant", "combatants", "combatant", "Combatant", true),
		"/api/tokens/{id}":     objectPaths("Token", "tokens", "token", "Token", false),
		"/{reference}": obj{"get": obj{
			"operationId": "getReferencePage", "summary": "Entity page as HTML; the reference is <kind>.<slug-or-id>, e.g. monster.goblin",
			"tags":       []string{"references"},
			"parameters": []obj{{"name": "reference", "in": "path", "required": true, "schema": obj{"type": "string", "pattern": `^[a-z][a-z0-9_]*\.[^./]+$`}}},
			"responses": obj{
				"200": obj{"description": "The entity page", "content": obj{"text/html": obj{"schema": obj{"type": "string"}}}},
				"400": obj{"description": "Malformed reference", "content": obj{"text/html": obj{"schema": obj{"type": "string"}}}},
				"404": obj{"description": "Unknown kind or entity", "content": obj{"text/html": obj{"schema": obj{"type": "string"}}}},
			},
		}},
		"/{kind}/{slug}": obj{"get": obj{
			"operationId": "getReferencePageByPath", "summary": "Entity page as HTML at the form references take in the API, e.g. /monster/goblin (the page of monster.goblin)",
			"tags": []string{"references"},
			"parameters": []obj{
				{"name": "kind", "in": "path", "required": true, "schema": obj{"type": "string", "pattern": `^[a-z][a-z0-9_]*$`}},
				{"name": "slug", "in": "path", "required": true, "schema": obj{"type": "string", "pattern": `^[^./]+$`}},
			},
			"responses": obj{
				"200": obj{"description": "The entity page", "content": obj{"text/html": obj{"schema": obj{"type": "string"}}}},
				"400": obj{"description": "Malformed reference", "content": obj{"text/html": obj{"schema": obj{"type": "string"}}}},
				"404": obj{"description": "Unknown kind or entity", "content": obj{"text/html": obj{"schema": obj{"type": "string"}}}},
			},
		}},
	}
	schemas := baseSchemas()
	var tags []obj
	for _, kind := range sys.Kinds {
		name := TypeName(kind.Name)
		if _, taken := schemas[name]; taken {
			name += "Entity" // a kind named like a wire shape (creature, token...) keeps both
		}
		tags = append(tags, obj{"name": kind.Collection, "description": kind.CollectionTitle + " (entity kind '" + kind.Name + "')"})
		schemas[name] = entitySchema(kind)
		schemas[name+"Row"] = listRowSchema(kind)
		paths["/api/"+kind.Collection] = obj{"get": obj{
			"operationId": "list" + TypeName(kind.Collection), "summary": "Every " + kind.Title + " (no pagination)",
			"tags": []string{kind.Collection},
			"parameters": []obj{{"name": "schema", "in": "query", "description": "list: rows with the filter keys; basic: rows without them; model: stored entities; view: values as displayed",
				"schema": obj{"type": "string", "enum": []string{SchemaList, SchemaBasic, SchemaModel, SchemaView}, "default": SchemaList}}},
			"responses": obj{
				"200": response("The collection (ETag; 304 on If-None-Match)", obj{"anyOf": []obj{arrayOf(ref(name + "Row")), arrayOf(ref(name)), arrayOf(ref("EntityView"))}}),
				"304": response("Not modified", nil),
				"400": errorResponse("Invalid schema"),
			},
		}}
		paths["/api/"+kind.Collection+"/{id}"] = entityPaths(kind, name)
	}
	addSeatPaths(paths, schemas) // openapi_seats.go
	tags = append(tags, obj{"name": "game"}, obj{"name": "combatants"}, obj{"name": "tokens"}, obj{"name": "messages"},
		obj{"name": "import"}, obj{"name": "references"}, obj{"name": "meta"}, obj{"name": "seats"})
	events, requests, replies := eventSchemas(schemas)
	return obj{
		"openapi": "3.1.0",
		"info": obj{
			"title":   "Companion API (" + sys.Name + ")",
			"version": core.Version,
			"description": "HTTP interface of the game companion with the game system " + sys.Name + " " + sys.Version + " loaded. No authentication while the join key is off (then every request carries the key: the X-Companion-Key header, the key query parameter or a pass cookie, else 401); no DELETE; writes are refused cross-origin at CORS preflight. " +
				"Everyone on this API is a player: hidden tokens and combatants do not exist for it (404), and combatants leave out the game master's notes. " +
				"The WebSocket's events are under x-events: each event name with the component schema of its data (Event<Name>); the data of each request a client sends under x-requests (Request<Name>), the answers to them under x-replies (Reply<Name>); every message is an Envelope. " +
				"The repository's docs/api.md says when each is sent and how a client uses them.",
		},
		"tags":       tags,
		"paths":      paths,
		"x-events":   events,
		"x-requests": requests,
		"x-replies":  replies,
		"components": obj{"schemas": schemas, "securitySchemes": joinKeySchemes},
	}
}

// entityPaths is the single-entity path of one kind.
func entityPaths(kind Kind, name string) obj {
	return obj{
		"parameters": []obj{idParam},
		"get": obj{
			"operationId": "get" + name, "summary": "One " + kind.Title, "tags": []string{kind.Collection},
			"parameters": []obj{
				{"name": "schema", "in": "query", "schema": obj{"type": "string", "enum": []string{SchemaModel, SchemaView}, "default": SchemaModel}},
				{"name": "references", "in": "query", "description": "Add the resolved linked entities under 'references'", "schema": obj{"type": "boolean", "default": false}},
			},
			"responses": obj{"200": response("The entity", obj{"anyOf": []obj{ref(name), ref("EntityView")}}),
				"400": errorResponse("Invalid schema or references value"),
				"404": errorResponse("No " + kind.Title + " with that id")},
		},
		"put": obj{
			"operationId": "put" + name, "summary": "Replace a " + kind.Title + "; the body id must equal the path id", "tags": []string{kind.Collection},
			"requestBody": obj{"required": true, "content": jsonContent(ref(name))},
			"responses":   writeResponses(name, kind.Title),
		},
		"patch": obj{
			"operationId": "patch" + name, "summary": "Merge a JSON patch into a " + kind.Title + " (null removes a key)", "tags": []string{kind.Collection},
			"requestBody": obj{"required": true, "content": obj{"application/merge-patch+json": obj{"schema": obj{"type": "object"}}, "application/json": obj{"schema": obj{"type": "object"}}}},
			"responses":   writeResponses(name, kind.Title),
		},
	}
}

// objectPaths is GET, PUT and PATCH of a combatant or token. A hidden one
// does not exist for players (engine.PlayerAccess): every operation answers
// it 404, as an unknown id.
func objectPaths(schema, tag, noun, title string, idRule bool) obj {
	putSummary := "Replace a " + noun + "; the body id must equal the path id"
	if !idRule {
		putSummary = "Replace a " + noun + "; the body id wins over the path id"
	}
	notFound := errorResponse("No " + noun + " with that id, or a hidden one: players never see a hidden " + noun)
	writes := func() obj {
		r := writeResponses(schema, noun)
		r["404"] = notFound
		return r
	}
	return obj{
		"parameters": []obj{idParam},
		"get": obj{"operationId": "get" + title, "summary": "One " + noun + " as players see it", "tags": []string{tag},
			"responses": obj{"200": response("The "+noun, ref(schema)), "404": notFound}},
		"put": obj{"operationId": "put" + title, "summary": putSummary + "; a player's write keeps the stored 'hidden'", "tags": []string{tag},
			"requestBody": obj{"required": true, "content": jsonContent(ref(schema))},
			"responses":   writes()},
		"patch": obj{"operationId": "patch" + title, "summary": "Merge a JSON patch into a " + noun + "; a player's write keeps the stored 'hidden'", "tags": []string{tag},
			"requestBody": obj{"required": true, "content": jsonContent(obj{"type": "object"})},
			"responses":   writes()},
	}
}

func writeResponses(schema, noun string) obj {
	return obj{
		"200": response("The stored "+noun, ref(schema)),
		"400": errorResponse("Unparseable body, or a body id that differs from the path id"),
		"404": errorResponse("No " + noun + " with that id"),
		"403": errorResponse("Sent by a page of another site (Origin)"),
		"413": errorResponse("Body or stored " + noun + " over its size limit"),
		"415": errorResponse("A body declared as anything but JSON"),
	}
}

// importErrorSchema is the {"error"} body of import failures (contract 4.6).
var importErrorSchema = obj{"type": "object", "properties": obj{"error": obj{"type": "string"}}, "required": []string{"error"}}

// entitySchema is the stored model of an entity of kind.
func entitySchema(kind Kind) obj {
	return obj{
		"type":          "object",
		"x-system-kind": kind.Name,
		"description":   kind.Title + ": an entity of kind '" + kind.Name + "'; its data keys are defined by the system",
		"required":      []string{"id", "name"},
		"properties": obj{
			"id": obj{"type": "string"}, "kind": obj{"type": "string", "const": kind.Name}, "system": obj{"type": "string"},
			"name": obj{"type": "string"}, "slug": obj{"type": "string"}, "type": obj{"type": "string"},
			"descr": obj{"type": "string"}, "notes": obj{"type": "string"}, "image": obj{"type": "string"},
			"data": obj{"type": "object"}, "attributes": obj{"type": "object"}, "modifiers": arrayOf(obj{"type": "object"}),
			"tags": arrayOf(obj{"type": "string"}), "combatant": ref("Combatant"), "sources": arrayOf(obj{"type": "object"}),
			"created": obj{"type": "string", "format": "date-time"}, "modified": obj{"type": "string", "format": "date-time"},
			"references": obj{"type": "array", "description": "Only with references=true", "items": obj{"type": "object"}},
		},
	}
}

// listRowSchema is a schema=list row of kind: id, kind, name, slug and the
// filter keys.
func listRowSchema(kind Kind) obj {
	props := obj{"id": obj{"type": "string"}, "kind": obj{"type": "string"}, "name": obj{"type": "string"}, "slug": obj{"type": "string"}}
	for _, f := range kind.Filters {
		props[f] = obj{"description": "filter key copied from data (schema=list only)"}
	}
	return obj{"type": "object", "x-system-kind": kind.Name, "required": []string{"id", "kind", "name", "slug"}, "properties": props}
}

// baseSchemas are the shapes that do not depend on the system.
func baseSchemas() obj {
	str := obj{"type": "string"}
	// Written here: the shapes not marshalled from one Go type (an error
	// body, the system document the system builds, input).
	written := obj{
		"Error": obj{"type": "object", "required": []string{"message"}, "additionalProperties": false, "properties": obj{"message": str}},
		"System": obj{"type": "object", "required": []string{"id", "name", "definitions"}, "properties": obj{
			"id": str, "name": str, "config": obj{"type": "object"}, "settings": obj{"type": "object"},
			"definitions": obj{"type": "object", "properties": obj{"entities": obj{"type": "object"}, "types": obj{"type": "object"}}}}},
		"EntityView": obj{"type": "object", "description": "schema=view: values as the application displays them",
			"required": []string{"id", "kind", "name", "slug"}, "properties": obj{"id": str, "kind": str, "name": str, "slug": str}},
		"MessageInput": obj{"type": "object", "required": []string{"text"}, "properties": obj{
			"text": obj{"type": "string", "minLength": 1}, "type": str, "source": str, "color": str, "creature": str}},
	}
	schemas := wireSchemas() // the shapes derived from Go types (openapi_shapes.go)
	for name, schema := range written {
		schemas[name] = schema
	}
	return schemas
}
