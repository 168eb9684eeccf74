package systems

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// Kind is an entity kind a system declares with companion.entity.
type Kind struct {
	Name            string   `json:"kind"`
	Collection      string   `json:"collection"`
	Title           string   `json:"title"`
	CollectionTitle string   `json:"collectionTitle"`
	Template        string   `json:"template"`
	Filters         []string `json:"filters"`
	Ranges          []string `json:"ranges"`
	Unique          bool     `json:"unique"`
	// Editable lists the data keys the player holding a character's seat
	// may change (core.CharacterRules); HasActions, that the kind declares
	// the actions hook (the rolls of a character's sheet).
	Editable   []string `json:"editable"`
	HasActions bool     `json:"actions"`
	// RollOptions and Outcomes are the options the kind's rolls offer and
	// the outcomes its outcome hook may name (rolls.go).
	RollOptions []core.RollOption `json:"rollOptions,omitempty"`
	Outcomes    []core.RollOption `json:"outcomes,omitempty"`
	// HealthTitle is what the sheet calls the first range; Tallies, the
	// tracks a player marks on it (sheet.go).
	HealthTitle string       `json:"health,omitempty"`
	Tallies     []core.Tally `json:"tallies,omitempty"`
	// Bounds are the values the kind's data keys may hold when a player
	// writes them (bounds.go).
	Bounds map[string]core.ValueBound `json:"-"`
	// HasReferences tells whether the kind declares a references function.
	HasReferences bool `json:"-"`
}

// ReservedCollections are the fixed routes a collection label cannot take.
var ReservedCollections = []string{"combatants", "tokens", "system", "clients", "messages", "import", "openapi.json", "seats", "me"}

var collectionLabel = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// entityOptions are the keys companion.entity accepts; the value says
// whether the key holds a function.
var entityOptions = map[string]bool{
	"collection": false, "title": false, "collectionTitle": false, "template": false,
	"filters": false, "unique": false, "ranges": false, "editable": false, "bounds": false,
	"rollOptions": false, "outcomes": false, "health": false, "tallies": false,
	"view": true, "references": true, "token": true, "initiative": true, "actions": true,
	"roll": true, "outcome": true,
}

// buildKinds validates the entity declarations, adding every problem.
func buildKinds(decl *scripting.Declarations, problems *scripting.Problems) []*Kind {
	var kinds []*Kind
	byName := map[string]*scripting.EntityDecl{}
	byCollection := map[string]*scripting.EntityDecl{}
	for _, d := range decl.Entities {
		add := func(format string, args ...any) {
			problems.Add(d.File, d.Line, "kind %q: %s", d.Kind, fmt.Sprintf(format, args...))
		}
		if first, dup := byName[d.Kind]; dup {
			add("declared twice (first at %s:%d)", first.File, first.Line)
			continue
		}
		byName[d.Kind] = d
		for _, key := range sortedKeys(d.Fields, d.Funcs) {
			isFunc, known := entityOptions[key]
			_, gotFunc := d.Funcs[key]
			switch {
			case !known:
				add("unknown option %q (known: %s)", key, strings.Join(optionNames(), ", "))
			case isFunc && !gotFunc:
				add("%s must be a function", key)
			case !isFunc && gotFunc:
				add("%s must be a value, not a function", key)
			}
		}
		k := &Kind{Name: d.Kind}
		k.Collection = stringOption(d, "collection", add)
		k.Title = stringOption(d, "title", add)
		k.CollectionTitle = stringOption(d, "collectionTitle", add)
		k.Template = stringOption(d, "template", add)
		k.Filters = stringListOption(d, "filters", add)
		for _, f := range k.Filters {
			switch f {
			case "id", "kind", "name", "slug":
				add("filters cannot list %q: list rows already carry it", f)
			}
		}
		k.Ranges = stringListOption(d, "ranges", add)
		k.Editable = stringListOption(d, "editable", add)
		k.Bounds = boundOption(d, add)
		_, k.HasActions = d.Funcs["actions"]
		k.RollOptions = namedListOption(d, "rollOptions", add)
		k.Outcomes = namedListOption(d, "outcomes", add)
		k.HealthTitle = stringOption(d, "health", add)
		k.Tallies = tallyOption(d, add)
		if _, ok := d.Funcs["outcome"]; ok && len(k.Outcomes) == 0 {
			add("an outcome function names one of the kind's outcomes: declare them, outcomes = { { id = \"success\", title = \"Success\" } }")
		}
		if v, ok := d.Fields["unique"]; ok {
			b, isBool := v.(bool)
			if !isBool {
				add("unique must be true or false")
			}
			k.Unique = b
		}
		_, k.HasReferences = d.Funcs["references"]
		if (len(k.Editable) > 0 || k.HasActions) && !k.Unique {
			add("editable and actions are for a unique kind (a player's character): set unique = true")
		}
		if _, ok := d.Funcs["view"]; !ok {
			if _, asValue := d.Fields["view"]; !asValue {
				add("view is required: a function(e) returning the values players read")
			}
		}
		switch {
		case k.Collection == "":
			if _, given := d.Fields["collection"]; !given {
				add("collection is required: the {collection} of /api/{collection}, e.g. %q", d.Kind+"s")
			}
		case isReserved(k.Collection):
			add("collection %q collides with the fixed route /api/%s; choose another label", k.Collection, k.Collection)
		case !collectionLabel.MatchString(k.Collection):
			add("collection %q must be lower-case letters, digits, '-' or '_'", k.Collection)
		default:
			if first, dup := byCollection[k.Collection]; dup {
				add("collection %q is already used by kind %q (%s:%d)", k.Collection, first.Kind, first.File, first.Line)
			}
			byCollection[k.Collection] = d
		}
		if k.Title == "" {
			k.Title = capitalise(k.Name)
		}
		if k.CollectionTitle == "" {
			k.CollectionTitle = capitalise(k.Collection)
		}
		if k.Template == "" {
			k.Template = k.Name + ".html"
		}
		kinds = append(kinds, k)
	}
	if len(decl.Entities) == 0 {
		problems.Add("", 0, "the system declares no entity kind: call companion.entity(kind, {...}) in the entry script")
	}
	return kinds
}

func isReserved(label string) bool {
	for _, r := range ReservedCollections {
		if label == r {
			return true
		}
	}
	return false
}

func optionNames() []string {
	names := make([]string, 0, len(entityOptions))
	for k := range entityOptions {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func sortedKeys(fields map[string]any, funcs map[string]scripting.Problem) []string {
	keys := make([]string, 0, len(fields)+len(funcs))
	for k := range fields {
		keys = append(keys, k)
	}
	for k := range funcs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func stringOption(d *scripting.EntityDecl, key string, add func(string, ...any)) string {
	v, ok := d.Fields[key]
	if !ok {
		return ""
	}
	s, isString := v.(string)
	if !isString || strings.TrimSpace(s) == "" {
		add("%s must be a non-empty string", key)
		return ""
	}
	return s
}

func stringListOption(d *scripting.EntityDecl, key string, add func(string, ...any)) []string {
	out := []string{}
	v, ok := d.Fields[key]
	if !ok {
		return out
	}
	list, isList := v.([]any)
	if !isList {
		add("%s must be a list of data keys such as { \"size\", \"type\" }", key)
		return out
	}
	seen := map[string]bool{}
	for _, item := range list {
		s, isString := item.(string)
		if !isString || s == "" {
			add("%s must hold only non-empty strings", key)
			continue
		}
		if seen[s] {
			add("%s lists %q twice", key, s)
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
