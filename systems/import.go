package systems

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// UnmappedKey is where an imported entity keeps what the system's import
// handler did not map: data.unmapped holds the rest of the element, in the
// element's own shape, so that nothing of the source is dropped.
const UnmappedKey = "unmapped"

// entityKeys are the keys an import handler's entity table may set: the
// entity's fields (docs/content-format.md). The system's own fields go
// under data.
var entityKeys = map[string]bool{
	"id": true, "kind": true, "name": true, "slug": true, "type": true, "descr": true, "notes": true,
	"image": true, "token": true, "icon": true, "data": true, "attributes": true, "modifiers": true,
	"tags": true, "sources": true,
}

// ImportKinds lists the compendium element kinds the system has import
// handlers for (companion.import.compendium), sorted.
func (s *System) ImportKinds() []string { return s.rt.ImportKinds() }

// MapCompendium runs the system's import handler of kind on an element
// (its table, legacyxml.Element.Table) and returns the entities it made,
// checked: each of a kind the system declares, named, with only entity
// fields. What the handler left in the element is kept under
// data.unmapped of the first entity. No handler, or a handler returning
// nil, gives no entity and no error; the element is then not imported
// (the importer reports it). A failing handler is a *scripting.ScriptError
// naming file and line.
func (s *System) MapCompendium(ctx context.Context, kind string, element map[string]any) ([]*core.Entity, error) {
	if !s.rt.HasImport(kind) {
		return nil, nil
	}
	result, rest, err := s.rt.CallImport(ctx, kind, element)
	if err != nil {
		return nil, err
	}
	file, line := s.rt.ImportPos(kind)
	fail := func(format string, args ...any) error {
		return &scripting.ScriptError{Problem: scripting.Problem{File: file, Line: line,
			Message: fmt.Sprintf("the compendium import handler of %q ", kind) + fmt.Sprintf(format, args...)}}
	}
	var tables []map[string]any
	switch r := result.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		tables = []map[string]any{r}
	case []any:
		for i, item := range r {
			m, ok := item.(map[string]any)
			if !ok {
				return nil, fail("returned a list whose item %d is a %s; it must return entity tables", i+1, jsonType(item))
			}
			tables = append(tables, m)
		}
	default:
		return nil, fail("returned a %s; it must return an entity table, a list of them, or nil", jsonType(result))
	}
	out := make([]*core.Entity, 0, len(tables))
	for i, t := range tables {
		e, err := s.importedEntity(t, kind)
		if err != nil {
			if len(tables) > 1 {
				return nil, fail("returned an entity (item %d) that %s", i+1, err.Error())
			}
			return nil, fail("returned an entity that %s", err.Error())
		}
		out = append(out, e)
	}
	if len(out) > 0 {
		keepUnmapped(out[0], rest)
	}
	return out, nil
}

// importedEntity checks one entity table and decodes it.
func (s *System) importedEntity(t map[string]any, elementKind string) (*core.Entity, error) {
	var unknown []string
	for k := range t {
		if !entityKeys[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("sets %s, which %s not an entity field (the system's own fields go under data)", quoteList(unknown), plural(len(unknown), "is", "are"))
	}
	kind, _ := t["kind"].(string)
	if t["kind"] == nil {
		kind = elementKind
	}
	if _, ok := s.byName[kind]; !ok {
		if t["kind"] == nil {
			return nil, fmt.Errorf("has no kind, and %q is not an entity kind of this system: set kind", elementKind)
		}
		return nil, fmt.Errorf("has kind %v, which this system does not declare", t["kind"])
	}
	if name, _ := t["name"].(string); strings.TrimSpace(name) == "" {
		return nil, fmt.Errorf("has no name")
	}
	if d, ok := t["data"]; ok && d != nil {
		if _, ok := d.(map[string]any); !ok {
			return nil, fmt.Errorf("has data that is a %s; it must be a table of named values", jsonType(d))
		}
	}
	raw, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("cannot be written as JSON: %v", err)
	}
	var e core.Entity
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("is not an entity: %s", core.JSONErrorText(err))
	}
	e.Kind = kind
	return &e, nil
}

// keepUnmapped puts what is left of the element (empty values aside)
// under data.unmapped, beside what the handler may have put there.
func keepUnmapped(e *core.Entity, rest map[string]any) {
	left, _ := pruneEmpty(rest).(map[string]any)
	if len(left) == 0 {
		return
	}
	if e.Data == nil {
		e.Data = core.Object{}
	}
	if own, ok := e.Data[UnmappedKey].(map[string]any); ok {
		for k, v := range left {
			if _, set := own[k]; !set {
				own[k] = v
			}
		}
		return
	}
	if e.Data[UnmappedKey] != nil {
		// The handler kept something else there: the rest goes beside it.
		e.Data[UnmappedKey] = map[string]any{"kept": e.Data[UnmappedKey], "element": left}
		return
	}
	e.Data[UnmappedKey] = left
}

// pruneEmpty drops empty strings, lists and tables (an <immune/> says
// nothing); what is left of a value, or nil.
func pruneEmpty(v any) any {
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return nil
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			if p := pruneEmpty(item); p != nil {
				out[k] = p
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		out := make([]any, 0, len(x))
		for _, item := range x {
			if p := pruneEmpty(item); p != nil {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	return v
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case map[string]any:
		return "table of named values"
	case []any:
		return "list"
	}
	return "number"
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return strings.Join(q, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
