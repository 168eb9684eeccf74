// Package systems loads a game system folder (system.json, Lua scripts,
// pongo2 templates, theme, assets, sample content), validates it, and
// renders entities through it: list rows, views, reference pages. A loaded
// System is immutable; a Holder swaps systems atomically on hot reload.
package systems

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"slices"
	"sort"
	"time"

	"github.com/vttapp/companion/core/turns"

	"github.com/vttapp/companion/scripting"
	"github.com/vttapp/companion/templates"
)

// Options configure Load.
type Options struct {
	// CallTimeout bounds each Lua call (default 250 ms).
	CallTimeout time.Duration
	// MaxCallMemory bounds what one Lua call may hold, in bytes (default
	// scripting.DefaultMaxCallMemory, 32 MiB; negative: no bound).
	MaxCallMemory int64
	// PoolSize bounds the Lua states alive at once (default GOMAXPROCS).
	PoolSize int
	// CacheSize bounds each cache (rows, views, pages) in entries
	// (default 4096).
	CacheSize int
	// Print receives what the scripts print (default: the slog default
	// logger, tagged with the system id).
	Print func(string)
}

// DefaultCacheSize is the number of entries each cache keeps by default.
const DefaultCacheSize = 4096

// System is a loaded, validated game system. It is immutable once loaded
// and safe for concurrent use.
type System struct {
	manifest     Manifest
	kinds        []*Kind
	byName       map[string]*Kind
	byCollection map[string]*Kind
	rt           *scripting.Runtime
	set          *templates.Set
	pages        map[string]*templates.Template // by kind
	themeCSS     string
	kindCSS      map[string]string
	pageCSS      string         // theme/page.css: the look of module pages
	systemValue  map[string]any // "system" in template contexts; read-only
	doc          []byte
	etag         string
	assets       fs.FS
	sample       fs.FS
	// initiativeAscending: config combat.initiative.sortOrder is "asc".
	initiativeAscending bool
	// turnStyle: config combat.turns, core.TurnsByInitiative (the
	// default) or core.TurnsPassed.
	turnStyle string
	// healthLabel: the label of config.entities.Default.combatant's
	// first bar ("HP" in D&D 5e), "Health" when it has none.
	healthLabel string
	// diagonal: config.measurement.diagonal, how a ruler counts a diagonal
	// step ("" when the system says nothing; the clients' default then).
	diagonal string
	// initiative: config combat.initiative's rollFormula and autoRoll
	// (initiative.go).
	initiative initiativeConfig

	rowCache  *cache
	viewCache *cache
	pageCache *cache
}

// Load compiles and validates a system folder. The error is a
// scripting.Problems listing every problem as "file:line: message"; no
// half-loaded system is ever returned.
func Load(fsys fs.FS, opts Options) (*System, error) {
	var problems scripting.Problems
	m := readManifest(fsys, &problems)
	if m == nil {
		return nil, problems
	}
	prog, err := scripting.Compile(fsys, m.Entry)
	if err != nil {
		return nil, append(problems, asProblems(err)...)
	}
	if opts.Print == nil {
		id := m.ID
		opts.Print = func(text string) { slog.Info("lua print", "system", id, "text", text) }
	}
	rt, err := scripting.Start(prog, scripting.Options{CallTimeout: opts.CallTimeout, PoolSize: opts.PoolSize, Print: opts.Print, MaxCallMemory: opts.MaxCallMemory, Null: templates.Null})
	if err != nil {
		return nil, append(problems, asProblems(err)...)
	}
	decl := rt.Declarations()
	problems = append(problems, decl.Problems...)
	s := &System{
		manifest:     *m,
		rt:           rt,
		byName:       map[string]*Kind{},
		byCollection: map[string]*Kind{},
		pages:        map[string]*templates.Template{},
		kindCSS:      map[string]string{},
	}
	s.kinds = buildKinds(decl, &problems)
	for _, k := range s.kinds {
		s.byName[k.Name] = k
		if k.Collection != "" {
			s.byCollection[k.Collection] = k
		}
	}
	s.loadTemplates(fsys, decl, &problems)
	s.loadTheme(fsys, &problems)
	s.assets = subOrEmpty(fsys, "assets")
	if sub, ok := subIfDir(fsys, "sample"); ok {
		s.sample = sub
	}
	types := buildTypes(decl, &problems)
	config, settings := buildSystemDecl(decl, &problems)
	s.initiativeAscending = initiativeSortOrder(decl, config, &problems)
	s.turnStyle = turnStyle(decl, config, &problems)
	s.healthLabel = healthLabel(config)
	s.diagonal, _ = lookupPath(config, "measurement", "diagonal").(string)
	s.initiative = readInitiativeConfig(config)
	if len(problems) > 0 {
		rt.Close()
		sortProblems(problems)
		return nil, problems
	}
	s.doc, s.etag = buildDocument(s, config, settings, types)
	s.systemValue = map[string]any{"id": s.manifest.ID, "name": s.manifest.Name, "version": s.manifest.Version}
	size := opts.CacheSize
	if size <= 0 {
		size = DefaultCacheSize
	}
	s.rowCache, s.viewCache, s.pageCache = newCache(size), newCache(size), newCache(size)
	return s, nil
}

// LoadDir loads a system from a folder on disk.
func LoadDir(dir string, opts Options) (*System, error) {
	return Load(dirFS(dir), opts)
}

func asProblems(err error) scripting.Problems {
	var ps scripting.Problems
	if errors.As(err, &ps) {
		return ps
	}
	var se *scripting.ScriptError
	if errors.As(err, &se) {
		return scripting.Problems{se.Problem}
	}
	return scripting.Problems{{Message: err.Error()}}
}

func sortProblems(ps scripting.Problems) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Line < ps[j].Line
	})
}

// loadTemplates parses every kind's template now, so that a missing file or
// a syntax error fails the load rather than the first page.
func (s *System) loadTemplates(fsys fs.FS, decl *scripting.Declarations, problems *scripting.Problems) {
	tfs, ok := subIfDir(fsys, "templates")
	if !ok {
		tfs = emptyFS{}
	}
	s.set = templates.NewSet(s.manifest.ID+"@"+s.manifest.Version, tfs, "templates/")
	for i, k := range s.kinds {
		d := decl.Entities[indexOfKind(decl, k.Name, i)]
		if _, err := fs.Stat(tfs, k.Template); err != nil {
			problems.Add(d.File, d.Line, "kind %q: template templates/%s not found", k.Name, k.Template)
			continue
		}
		tpl, err := s.set.Load(k.Template)
		if err != nil {
			var te *templates.Error
			if errors.As(err, &te) {
				problems.Add(te.File, te.Line, "%s", te.Message)
			} else {
				problems.Add("templates/"+k.Template, 0, "%v", err)
			}
			continue
		}
		s.pages[k.Name] = tpl
	}
}

func indexOfKind(decl *scripting.Declarations, kind string, fallback int) int {
	for i, e := range decl.Entities {
		if e.Kind == kind {
			return i
		}
	}
	return fallback
}

// loadTheme reads theme/theme.css, theme/<kind>.css and theme/page.css
// (module pages) when present.
func (s *System) loadTheme(fsys fs.FS, problems *scripting.Problems) {
	if data, err := fs.ReadFile(fsys, "theme/theme.css"); err == nil {
		s.themeCSS = string(data)
	} else if !errors.Is(err, fs.ErrNotExist) {
		problems.Add("theme/theme.css", 0, "cannot read: %v", err)
	}
	if data, err := fs.ReadFile(fsys, "theme/page.css"); err == nil {
		s.pageCSS = string(data)
	} else if !errors.Is(err, fs.ErrNotExist) {
		problems.Add("theme/page.css", 0, "cannot read: %v", err)
	}
	for _, k := range s.kinds {
		name := path.Join("theme", k.Name+".css")
		if data, err := fs.ReadFile(fsys, name); err == nil {
			s.kindCSS[k.Name] = string(data)
		} else if !errors.Is(err, fs.ErrNotExist) {
			problems.Add(name, 0, "cannot read: %v", err)
		}
	}
}

// buildTypes collects companion.types declarations (definitions.types).
func buildTypes(decl *scripting.Declarations, problems *scripting.Problems) map[string]any {
	types := map[string]any{}
	first := map[string]*scripting.TypeDecl{}
	for _, t := range decl.Types {
		if f, dup := first[t.Name]; dup {
			problems.Add(t.File, t.Line, "types %q declared twice (first at %s:%d)", t.Name, f.File, f.Line)
			continue
		}
		first[t.Name] = t
		types[t.Name] = t.Value
	}
	return types
}

// buildSystemDecl reads companion.system{config=..., settings=...}.
func buildSystemDecl(decl *scripting.Declarations, problems *scripting.Problems) (config, settings any) {
	config, settings = map[string]any{}, map[string]any{}
	if decl.System == nil {
		return
	}
	for key, v := range decl.System.Fields {
		switch key {
		case "config", "settings":
			switch x := v.(type) {
			case map[string]any:
				if key == "config" {
					config = x
				} else {
					settings = x
				}
			case []any:
				if len(x) != 0 {
					problems.Add(decl.System.File, decl.System.Line, "companion.system: %s must be a table of named values, not a list", key)
				}
			default:
				problems.Add(decl.System.File, decl.System.Line, "companion.system: %s must be a table", key)
			}
		default:
			problems.Add(decl.System.File, decl.System.Line, "companion.system: unknown field %q (known: config, settings)", key)
		}
	}
	return
}

// initiativeSortOrder reads config.combat.initiative.sortOrder ("desc",
// the default, or "asc") and reports "asc". Any other value is a problem
// for the author rather than a silent default: a system whose lowest
// initiative acts first would otherwise run its combats backwards.
func initiativeSortOrder(decl *scripting.Declarations, config any, problems *scripting.Problems) bool {
	v := lookupPath(config, "combat", "initiative", "sortOrder")
	switch v {
	case nil, "desc":
		return false
	case "asc":
		return true
	}
	problems.Add(decl.System.File, decl.System.Line, `companion.system: config.combat.initiative.sortOrder must be "asc" or "desc", not %v`, jsonText(v))
	return false
}

// turnStyle reads config.combat.turns: "initiative" (the default: turns
// follow rolled initiative) or "passed" (no initiative: the one acting
// hands the turn on). Any other value is the author's problem to fix.
func turnStyle(decl *scripting.Declarations, config any, problems *scripting.Problems) string {
	switch v := lookupPath(config, "combat", "turns"); v {
	case nil, turns.TurnsByInitiative:
		return turns.TurnsByInitiative
	case turns.TurnsPassed:
		return turns.TurnsPassed
	default:
		problems.Add(decl.System.File, decl.System.Line, `companion.system: config.combat.turns must be "initiative" or "passed", not %v`, jsonText(v))
		return turns.TurnsByInitiative
	}
}

// healthLabel reads the short word a system shows health under: its
// default combatant's first bar's label, the one the player client's
// initiative list uses too.
func healthLabel(config any) string {
	if bars, ok := lookupPath(config, "entities", "Default", "combatant", "bars").([]any); ok && len(bars) > 0 {
		if label, ok := lookupPath(bars[0], "label").(string); ok && label != "" {
			return label
		}
	}
	return "Health"
}

// HealthLabel is the short word the system shows health under ("HP").
func (s *System) HealthLabel() string { return s.healthLabel }

// Diagonal is how the system's ruler counts a diagonal step on a square
// grid (config.measurement.diagonal), "" when it does not say.
func (s *System) Diagonal() string { return s.diagonal }

// TurnStyle is how the system's combat passes turns (core.TurnStyler).
func (s *System) TurnStyle() string { return s.turnStyle }

// lookupPath follows nested tables by key; nil when any step is missing.
func lookupPath(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// jsonText shows a config value as its author would recognise it.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// InitiativeAscending reports a system whose lowest initiative acts first
// (core.InitiativeSorter).
func (s *System) InitiativeAscending() bool { return s.initiativeAscending }

// ID is the system's id (system.json).
func (s *System) ID() string { return s.manifest.ID }

// Name is the system's display name.
func (s *System) Name() string { return s.manifest.Name }

// Version is the system's version (system.json).
func (s *System) Version() string { return s.manifest.Version }

// Manifest returns system.json as loaded (entry defaulted).
func (s *System) Manifest() Manifest { return s.manifest }

// Kinds lists the kinds in declaration order.
func (s *System) Kinds() []*Kind { return append([]*Kind(nil), s.kinds...) }

// Kind returns a kind by name.
func (s *System) Kind(name string) (*Kind, bool) {
	k, ok := s.byName[name]
	return k, ok
}

// KindByCollection returns the kind whose collection label is label.
func (s *System) KindByCollection(label string) (*Kind, bool) {
	k, ok := s.byCollection[label]
	return k, ok
}

// Document returns the GET /api/system JSON and its ETag (built once).
func (s *System) Document() (body []byte, etag string) { return s.doc, s.etag }

// Assets is the assets/ folder (an empty FS when absent).
func (s *System) Assets() fs.FS { return s.assets }

// Sample is the sample/ folder, or nil when absent.
func (s *System) Sample() fs.FS { return s.sample }

// Close releases the Lua states. Calls still running finish first; later
// calls prepare new states, so closing a system that is still referenced
// is safe, only wasteful.
func (s *System) Close() { s.rt.Close() }

// SystemID, IsUnique and Ranges let a System serve as core.Rules.
func (s *System) SystemID() string { return s.manifest.ID }

// IsUnique reports whether entities of kind are unique (characters).
func (s *System) IsUnique(kind string) bool {
	k, ok := s.byName[kind]
	return ok && k.Unique
}

// Ranges lists the data keys kept in step between a shared combatant and
// its entity.
func (s *System) Ranges(kind string) []string {
	if k, ok := s.byName[kind]; ok {
		return append([]string(nil), k.Ranges...)
	}
	return nil
}

// HitPointRanges lists the first range of each kind that declares one,
// once each (core.RangeLister).
func (s *System) HitPointRanges() []string {
	var out []string
	for _, k := range s.kinds {
		if len(k.Ranges) > 0 && !slices.Contains(out, k.Ranges[0]) {
			out = append(out, k.Ranges[0])
		}
	}
	return out
}

func (s *System) String() string { return fmt.Sprintf("%s %s", s.manifest.ID, s.manifest.Version) }
