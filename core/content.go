package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
	"golang.org/x/text/unicode/norm"
)

// Object is a free-form JSON object: system data, attributes and the
// members the shapes leave open.
type Object = map[string]any

// NewID returns a fresh random identifier (a UUID string).
func NewID() string { return uuid.NewString() }

// Module groups content shipped as one unit (contract 2.1). It has exactly
// these properties; DecodeModule rejects any other. Category is free text:
// the shapes name adventure, pack, rules, compendium and other as examples
// and tolerate any other string.
type Module struct {
	ID            string   `json:"id"`
	System        string   `json:"system,omitempty"`
	Name          string   `json:"name"`
	Slug          string   `json:"slug"`
	Version       string   `json:"version"`
	Descr         string   `json:"descr,omitempty"`
	ShortDescr    string   `json:"shortDescr,omitempty"`
	Acronym       string   `json:"acronym,omitempty"`
	Author        string   `json:"author,omitempty"`
	Category      string   `json:"category,omitempty"`
	Website       string   `json:"website,omitempty"`
	Repository    string   `json:"repository,omitempty"`
	Package       string   `json:"package,omitempty"`
	Image         string   `json:"image,omitempty"`
	Banner        string   `json:"banner,omitempty"`
	Tags          []string `json:"tags"`
	Data          Object   `json:"data,omitempty"`
	Attributes    Object   `json:"attributes"`
	SystemVersion string   `json:"systemVersion,omitempty"`
}

// DefaultModuleVersion is the version of a module that declares none.
const DefaultModuleVersion = "1.0.0"

var semverPattern = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$`)

// IsSemver reports whether v is a semantic version MAJOR.MINOR.PATCH with
// optional pre-release and build parts.
func IsSemver(v string) bool { return semverPattern.MatchString(v) }

// DecodeModule parses a module document strictly: unknown properties and
// trailing data are errors. The result is normalized (see Module.Normalize).
func DecodeModule(data []byte) (*Module, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Module
	if err := dec.Decode(&m); err != nil {
		return nil, Invalidf("module: %s", JSONErrorText(err))
	}
	if dec.More() {
		return nil, Invalidf("module: unexpected data after the JSON object")
	}
	if err := m.Normalize(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Normalize fills defaults (id, version 1.0.0, slug from name, empty tags and
// attributes) and validates what the contract requires.
func (m *Module) Normalize() error {
	if strings.TrimSpace(m.Name) == "" {
		return Invalidf("module: name is required")
	}
	if m.ID == "" {
		m.ID = NewID()
	}
	if m.Version == "" {
		m.Version = DefaultModuleVersion
	}
	if !IsSemver(m.Version) {
		return Invalidf("module: version %q is not a semantic version MAJOR.MINOR.PATCH", m.Version)
	}
	if m.SystemVersion != "" && !IsSemver(m.SystemVersion) {
		return Invalidf("module: systemVersion %q is not a semantic version MAJOR.MINOR.PATCH", m.SystemVersion)
	}
	if m.Slug == "" {
		m.Slug = Slugify(m.Name)
	}
	m.System = strings.ToLower(m.System)
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if m.Attributes == nil {
		m.Attributes = Object{}
	}
	return nil
}

// Campaign is a playing group's world: it owns its game, maps, tokens,
// combatants and messages. One campaign per system is primary.
type Campaign struct {
	ID            string   `json:"id"`
	System        string   `json:"system,omitempty"`
	Name          string   `json:"name"`
	Slug          string   `json:"slug"`
	Descr         string   `json:"descr,omitempty"`
	ShortDescr    string   `json:"shortDescr,omitempty"`
	Image         string   `json:"image,omitempty"`
	Banner        string   `json:"banner,omitempty"`
	Tags          []string `json:"tags"`
	References    []string `json:"references"`
	Data          Object   `json:"data,omitempty"`
	Attributes    Object   `json:"attributes"`
	SystemVersion string   `json:"systemVersion,omitempty"`

	// Primary marks the campaign that drives GET /api for its system. It is
	// stored as a column, not part of the published shape.
	Primary bool `json:"-"`
}

// Normalize fills the defaults a campaign always carries.
func (c *Campaign) Normalize() error {
	if strings.TrimSpace(c.Name) == "" {
		return Invalidf("campaign: name is required")
	}
	if c.ID == "" {
		c.ID = NewID()
	}
	if c.Slug == "" {
		c.Slug = Slugify(c.Name)
	}
	c.System = strings.ToLower(c.System)
	if c.Tags == nil {
		c.Tags = []string{}
	}
	if c.References == nil {
		c.References = []string{}
	}
	if c.Attributes == nil {
		c.Attributes = Object{}
	}
	return nil
}

// Entity is a generic content object (monster, spell, item...). Its data is
// defined by the game system and kind.
type Entity struct {
	ID            string     `json:"id"`
	Kind          string     `json:"kind,omitempty"`
	System        string     `json:"system"`
	Name          string     `json:"name"`
	Slug          string     `json:"slug"`
	Type          string     `json:"type,omitempty"`
	Descr         string     `json:"descr,omitempty"`
	Notes         string     `json:"notes,omitempty"`
	Image         string     `json:"image,omitempty"`
	Token         string     `json:"token,omitempty"`
	Icon          string     `json:"icon,omitempty"`
	Data          Object     `json:"data,omitempty"`
	Attributes    Object     `json:"attributes"`
	Modifiers     []Modifier `json:"modifiers"`
	Tags          []string   `json:"tags"`
	Combatant     *Combatant `json:"combatant,omitempty"`
	Sources       []Source   `json:"sources"`
	AppVersion    string     `json:"appVersion,omitempty"`
	SystemVersion string     `json:"systemVersion,omitempty"`
	Created       time.Time  `json:"created"`
	Modified      time.Time  `json:"modified"`
	Meta          any        `json:"meta"`

	// Owner is the module or campaign that owns the entity (deleted with
	// it). Revision increases on every write; caches key on it. Neither is
	// part of the published shape.
	Owner    string `json:"-"`
	Revision int64  `json:"-"`
	// Redacted marks a copy made for players (EntityForPlayers): what a
	// system renders of it is cached apart from the whole entity's.
	Redacted bool `json:"-"`
}

// Normalize fills the defaults an entity always carries. kind is the kind
// the entity is filed under when it names none.
func (e *Entity) Normalize(now time.Time) error {
	if strings.TrimSpace(e.Name) == "" {
		return Invalidf("entity: name is required")
	}
	if e.ID == "" {
		e.ID = NewID()
	}
	if e.Slug == "" {
		e.Slug = Slugify(e.Name)
	}
	e.System = strings.ToLower(e.System)
	if e.Attributes == nil {
		e.Attributes = Object{}
	}
	if e.Modifiers == nil {
		e.Modifiers = []Modifier{}
	}
	if e.Tags == nil {
		e.Tags = []string{}
	}
	if e.Sources == nil {
		e.Sources = []Source{}
	}
	if err := checkDepth(e.Data, MaxDataDepth, "data"); err != nil {
		return err
	}
	if err := checkDepth(e.Attributes, MaxDataDepth, "attributes"); err != nil {
		return err
	}
	if e.Created.IsZero() {
		e.Created = now
	}
	if e.Modified.IsZero() {
		e.Modified = now
	}
	return nil
}

// MaxDataDepth is how deeply an entity's data and attributes may nest.
// System scripts receive the data as Lua tables and refuse deeper values,
// so an entity nested deeper would be stored and then fail every view.
const MaxDataDepth = 64

// checkDepth refuses a JSON value nested deeper than max levels.
func checkDepth(v any, max int, field string) error {
	if depthExceeds(v, max) {
		return Invalidf("entity: '%s' is nested deeper than %d levels", field, max)
	}
	return nil
}

func depthExceeds(v any, left int) bool {
	switch t := v.(type) {
	case map[string]any:
		if left == 0 {
			return true
		}
		for _, x := range t {
			if depthExceeds(x, left-1) {
				return true
			}
		}
	case []any:
		if left == 0 {
			return true
		}
		for _, x := range t {
			if depthExceeds(x, left-1) {
				return true
			}
		}
	}
	return false
}

// Modifier is an active stat adjustment.
type Modifier struct {
	ID        string `json:"id"`
	Enabled   bool   `json:"enabled"`
	Name      string `json:"name,omitempty"`
	Mode      string `json:"mode,omitempty"`
	Attribute string `json:"attribute,omitempty"`
	Value     string `json:"value,omitempty"`
	Scope     string `json:"scope,omitempty"`
}

// Source is a book and page citation.
type Source struct {
	Name string `json:"name,omitempty"`
	Page int    `json:"page,omitempty"`
}

// Slugify returns the lower-case URL-safe form of a name: accents folded,
// runs of anything else than letters and digits turned into one hyphen.
func Slugify(name string) string {
	var b strings.Builder
	pendingHyphen := false
	for _, r := range norm.NFD.String(name) {
		if unicode.Is(unicode.Mn, r) {
			continue // combining accent
		}
		r = unicode.ToLower(r)
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if pendingHyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(r)
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if pendingHyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(r)
			continue
		}
		pendingHyphen = true
	}
	return b.String()
}

// JSONErrorText turns a decoding error into a message a person can act on,
// without Go type names.
func JSONErrorText(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var date *time.ParseError
	switch {
	case asError(err, &syntax):
		return fmt.Sprintf("malformed JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case asError(err, &typ):
		field := typ.Field
		want := jsonTypeName(typ.Type.Kind().String())
		if want == "a number" && strings.HasPrefix(typ.Value, "number") {
			// The right type, a value the field cannot hold (1e400, -1 for a count).
			if field == "" {
				return fmt.Sprintf("%s is out of range", typ.Value)
			}
			return fmt.Sprintf("field '%s': %s is out of range", field, typ.Value)
		}
		if field == "" {
			return fmt.Sprintf("expected %s, got JSON %s", want, typ.Value)
		}
		return fmt.Sprintf("field '%s' must be %s, not %s", field, want, typ.Value)
	case asError(err, &date):
		return fmt.Sprintf("a date must be ISO 8601 text such as 2026-01-02T15:04:05Z, not %q", date.Value)
	case strings.Contains(err.Error(), "Time.UnmarshalJSON"):
		return "a date must be ISO 8601 text such as 2026-01-02T15:04:05Z"
	case err.Error() == "EOF":
		return "empty body: expected a JSON object"
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown property " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	default:
		return strings.TrimPrefix(err.Error(), "json: ")
	}
}

func jsonTypeName(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64":
		return "a number"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	default:
		return "a value of another type"
	}
}
