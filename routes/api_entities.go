package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/systems"
	"github.com/vttapp/companion/wire"
)

// Collection read schemas (contract 4.2), named in the wire description.
const (
	schemaList  = wire.SchemaList
	schemaBasic = wire.SchemaBasic
	schemaModel = wire.SchemaModel
	schemaView  = wire.SchemaView
)

// collectionKind resolves the {collection} path segment through the loaded
// system's entity definitions.
func (s *server) collectionKind(r *http.Request) (*systems.System, *systems.Kind, error) {
	sys, err := s.system()
	if err != nil {
		return nil, nil, err
	}
	label := httpkit.PathParam(r, "collection")
	if slices.Contains(systems.ReservedCollections, label) {
		return nil, nil, errReservedLabel
	}
	kind, ok := sys.KindByCollection(label)
	if !ok {
		return nil, nil, core.NotFoundf("unknown collection '%s'", core.Clip(label))
	}
	return sys, kind, nil
}

// errReservedLabel marks a collection path whose label belongs to a fixed
// route (messages, combatants...): answerCollectionError turns it into the
// 405 or 404 of that path.
var errReservedLabel = errors.New("reserved collection label")

// answerCollectionError writes an error of collectionKind. A reserved label
// reached a collection route only because its fixed route lacks this
// method (405 with that route's Allow) or this path (404).
func (s *server) answerCollectionError(w http.ResponseWriter, r *http.Request, err error) {
	if err != errReservedLabel {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.Routes != nil {
		if allowed := allowedMethods(rctx.Routes, requestPath(r)); len(allowed) > 1 {
			writeMethodNotAllowed(w, r, allowed)
			return
		}
	}
	switch label := httpkit.PathParam(r, "collection"); {
	case label == "combatants" && r.URL.Path == "/api/combatants":
		httpkit.WriteMessage(w, http.StatusNotFound, "no endpoint lists combatants: read them from 'game' in GET /api, or one at a time at /api/combatants/{id}")
	case label == "tokens" && r.URL.Path == "/api/tokens":
		httpkit.WriteMessage(w, http.StatusNotFound, "no endpoint lists tokens: read them from 'map' in GET /api, or one at a time at /api/tokens/{id}")
	default:
		httpkit.NotFound(w, r)
	}
}

// listCollection answers GET /api/{collection}: every entity of the kind,
// in the asked schema, no pagination. The whole body is cached per system,
// kind and schema until the next committed write, so a warm read is a copy
// of bytes with an ETag.
func (s *server) listCollection(w http.ResponseWriter, r *http.Request) {
	sys, kind, err := s.collectionKind(r)
	if err != nil {
		s.answerCollectionError(w, r, err)
		return
	}
	schema := r.URL.Query().Get("schema")
	switch schema {
	case "":
		schema = schemaList
	case schemaList, schemaBasic, schemaModel, schemaView:
	default:
		httpkit.WriteError(w, r, s.cfg.Log, core.Invalidf("schema must be list, basic, model or view, not '%s'", core.Clip(schema)))
		return
	}
	body, err := s.listings.get(r.Context(), s.cfg.Service, sys, kind, schema, s.players)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	body.serve(w, r)
}

// listingCache keeps the listing bodies of the current system. An entry is
// valid while the service's write generation is unchanged; a new system
// (hot reload) empties the cache.
type listingCache struct {
	mu      sync.Mutex
	system  *systems.System
	entries map[listingKey]listingEntry
}

type listingKey struct{ kind, schema string }

type listingEntry struct {
	generation uint64
	body       *cachedBody
}

func (c *listingCache) get(ctx context.Context, svc *engine.Service, sys *systems.System, kind *systems.Kind, schema string, players bool) (*cachedBody, error) {
	key := listingKey{kind.Name, schema}
	gen := svc.Generation() // read before the store, so a racing write only makes the entry stale
	c.mu.Lock()
	if c.system == sys {
		if e, ok := c.entries[key]; ok && e.generation == gen {
			c.mu.Unlock()
			return e.body, nil
		}
	}
	c.mu.Unlock()

	body, err := renderListing(ctx, svc, sys, kind, schema, players)
	if err != nil {
		return nil, err
	}
	cached := newCachedBody(body, "", "application/json; charset=utf-8")
	c.mu.Lock()
	if c.system != sys {
		c.system = sys
		c.entries = map[listingKey]listingEntry{}
	}
	c.entries[key] = listingEntry{generation: gen, body: cached}
	c.mu.Unlock()
	return cached, nil
}

// renderListing builds the JSON array of a collection in one schema; for
// players, without the game master's notes.
func renderListing(ctx context.Context, svc *engine.Service, sys *systems.System, kind *systems.Kind, schema string, players bool) ([]byte, error) {
	list, err := svc.Entities(ctx, kind.Name)
	if err != nil {
		return nil, err
	}
	if players {
		list = redact.EntitiesForPlayers(list)
	}
	var buf bytes.Buffer
	buf.Grow(len(list) * 256)
	buf.WriteByte('[')
	for i, e := range list {
		row, err := entityJSON(ctx, sys, e, schema)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(row)
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// entityJSON renders one entity in a schema.
func entityJSON(ctx context.Context, sys *systems.System, e *core.Entity, schema string) ([]byte, error) {
	switch schema {
	case schemaList:
		return sys.ListRow(ctx, e, false)
	case schemaBasic:
		return sys.ListRow(ctx, e, true)
	case schemaView:
		return sys.View(ctx, e)
	default:
		data, err := json.Marshal(e)
		if err != nil {
			return nil, core.Internal(err)
		}
		return data, nil
	}
}

// getEntity answers GET /api/{collection}/{id}: schema model (default) or
// view, and with references=true the resolved linked entities in the same
// schema under "references".
func (s *server) getEntity(w http.ResponseWriter, r *http.Request) {
	sys, kind, err := s.collectionKind(r)
	if err != nil {
		s.answerCollectionError(w, r, err)
		return
	}
	q := r.URL.Query()
	schema := q.Get("schema")
	switch schema {
	case "":
		schema = schemaModel
	case schemaModel, schemaView:
	default:
		httpkit.WriteError(w, r, s.cfg.Log, core.Invalidf("schema must be model or view on a single entity, not '%s'", core.Clip(schema)))
		return
	}
	withRefs := false
	if v := q.Get("references"); v != "" {
		withRefs, err = strconv.ParseBool(v)
		if err != nil {
			httpkit.WriteError(w, r, s.cfg.Log, core.Invalidf("references must be true or false, not '%s'", core.Clip(v)))
			return
		}
	}
	ctx := r.Context()
	e, err := s.cfg.Service.Entity(ctx, kind.Name, httpkit.PathParam(r, "id"))
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	e = s.forReaders(e)
	body, err := entityJSON(ctx, sys, e, schema)
	if err == nil && withRefs {
		var refs []byte
		refs, err = s.referencesJSON(ctx, sys, e, schema)
		if err == nil {
			body, err = withMember(body, "references", refs)
		}
	}
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	httpkit.WriteRawJSON(w, http.StatusOK, body)
}

// referencesJSON resolves the "kind.slug" references the system reports
// for e into a JSON array of entities in schema. A reference to nothing (an
// entity not installed) is left out rather than failing the read.
func (s *server) referencesJSON(ctx context.Context, sys *systems.System, e *core.Entity, schema string) ([]byte, error) {
	refs, err := sys.References(ctx, e)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteByte('[')
	seen := map[string]bool{}
	n := 0
	for _, ref := range refs {
		kind, slug, ok := parseReference(ref)
		if !ok || seen[ref] {
			continue
		}
		seen[ref] = true
		linked, err := s.cfg.Service.EntityByReference(ctx, kind, slug)
		if core.IsNotFound(err) {
			s.cfg.Log.Debug("unresolved entity reference", "entity", e.ID, "reference", ref)
			continue
		}
		if err != nil {
			return nil, err
		}
		row, err := entityJSON(ctx, sys, s.forReaders(linked), schema)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		buf.Write(row)
		n++
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// withMember sets "key": value in the JSON object obj: it replaces the
// value of a top-level key of that name (a system's view may carry one),
// else it appends the member. The other members keep their bytes and order.
func withMember(obj []byte, key string, value []byte) ([]byte, error) {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return nil, core.Internal(fmt.Errorf("rendered entity is not a JSON object"))
	}
	if start, end, found := memberValueSpan(obj, key); found {
		out := make([]byte, 0, len(obj)-(end-start)+len(value))
		out = append(out, obj[:start]...)
		out = append(out, value...)
		return append(out, obj[end:]...), nil
	}
	k, _ := json.Marshal(key)
	out := make([]byte, 0, len(obj)+len(k)+len(value)+2)
	out = append(out, obj[:len(obj)-1]...)
	if len(bytes.TrimSpace(obj[1:len(obj)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, k...)
	out = append(out, ':')
	out = append(out, value...)
	return append(out, '}'), nil
}

// memberValueSpan finds the byte span of the value of the top-level key in
// the JSON object obj.
func memberValueSpan(obj []byte, key string) (start, end int, found bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return 0, 0, false
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, 0, false
		}
		if name == key {
			end = int(dec.InputOffset())
			return end - len(v), end, true
		}
	}
	return 0, 0, false
}

// forReaders is an entity as this listener's readers may see it: for
// players, without the game master's notes (core.EntityForPlayers).
func (s *server) forReaders(e *core.Entity) *core.Entity {
	if s.players {
		return redact.EntityForPlayers(e)
	}
	return e
}

// putEntity answers PUT /api/{collection}/{id}: a complete entity whose id
// equals the path id (it is not a rename).
func (s *server) putEntity(w http.ResponseWriter, r *http.Request) {
	_, kind, err := s.collectionKind(r)
	if err != nil {
		s.answerCollectionError(w, r, err)
		return
	}
	var e core.Entity
	if err := httpkit.DecodeBody(r, &e); err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).PutEntity(r.Context(), kind.Name, httpkit.PathParam(r, "id"), &e)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, out)
}

// patchEntity answers PATCH /api/{collection}/{id}: a JSON merge patch.
func (s *server) patchEntity(w http.ResponseWriter, r *http.Request) {
	_, kind, err := s.collectionKind(r)
	if err != nil {
		s.answerCollectionError(w, r, err)
		return
	}
	patch, err := httpkit.DecodePatch(r)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).PatchEntity(r.Context(), kind.Name, httpkit.PathParam(r, "id"), patch)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, out)
}
