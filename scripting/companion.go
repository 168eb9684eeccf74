package scripting

import (
	"math"
	"regexp"

	lua "github.com/yuin/gopher-lua"

	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/textfmt"
)

// Declarations is what a system's entry script declared through the
// companion module. Values are plain JSON values; functions are recorded by
// name and position only (they live in each state).
type Declarations struct {
	// System is set when companion.system{...} was called.
	System   *SystemDecl
	Entities []*EntityDecl
	Types    []*TypeDecl
	// Imports are the compendium import handlers (importhook.go).
	Imports []*ImportDecl
	// Grid is the grid hook, when declared (gridhook.go).
	Grid *GridDecl
	// Problems are declarations the module refused (bad arguments), located
	// at the call.
	Problems Problems
}

// SystemDecl is a companion.system{...} call: its fields as JSON values.
type SystemDecl struct {
	File   string
	Line   int
	Fields map[string]any
}

// EntityDecl is a companion.entity(kind, {...}) call.
type EntityDecl struct {
	Kind string
	File string
	Line int
	// Fields holds the non-function fields as JSON values.
	Fields map[string]any
	// Funcs holds where each function field is defined ("view" -> pos).
	Funcs map[string]Problem
}

// TypeDecl is a companion.types(name, value) call.
type TypeDecl struct {
	Name  string
	File  string
	Line  int
	Value any
}

var kindName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// companionModule builds the table returned by require("companion").
func (st *state) companionModule() *lua.LTable {
	L := st.L
	mod := L.NewTable()
	L.SetFuncs(mod, map[string]lua.LGFunction{
		"entity": st.declareEntity,
		"types":  st.declareTypes,
		"system": st.declareSystem,
		"grid":   st.declareGrid,
		"array":  st.markTable(st.conv.arrayMT),
		"object": st.markTable(st.conv.objectMT),
	})
	mod.RawSetString("null", st.conv.null)
	mod.RawSetString("import", st.importModule())
	mod.RawSetString("format", L.SetFuncs(L.NewTable(), map[string]lua.LGFunction{
		"signed":   luaSigned,
		"modifier": luaModifier,
		"fraction": luaFraction,
		"ordinal":  luaOrdinal,
		"join":     st.join,
		"number":   luaThousands,
	}))
	mod.RawSetString("dice", L.SetFuncs(L.NewTable(), map[string]lua.LGFunction{
		"average": st.diceAverage,
		"roll":    luaDiceRoll,
	}))
	return mod
}

func (st *state) checkDeclaring(L *lua.LState, what string) bool {
	if !st.declaring {
		L.RaiseError("%s can only be called while the system loads (at the top level of a script), not from a view", what)
		return false
	}
	return true
}

func (st *state) problem(L *lua.LState, format string, args ...any) {
	file, line := callerPos(L)
	st.decl.Problems.Add(file, line, format, args...)
}

// declareEntity records companion.entity(kind, options).
func (st *state) declareEntity(L *lua.LState) int {
	if !st.checkDeclaring(L, "companion.entity") {
		return 0
	}
	file, line := callerPos(L)
	kind, ok := L.Get(1).(lua.LString)
	if !ok || !kindName.MatchString(string(kind)) {
		st.problem(L, "companion.entity: the kind must be a lower-case name such as \"monster\" ([a-z][a-z0-9_]*), not %s", L.Get(1).String())
		return 0
	}
	opts, ok := L.Get(2).(*lua.LTable)
	if !ok {
		st.problem(L, "companion.entity(%q, ...): the second argument must be a table of options, not a %s", kind, L.Get(2).Type().String())
		return 0
	}
	decl := &EntityDecl{Kind: string(kind), File: file, Line: line, Fields: map[string]any{}, Funcs: map[string]Problem{}}
	funcs := map[string]*lua.LFunction{}
	opts.ForEach(func(k, v lua.LValue) {
		key, ok := k.(lua.LString)
		if !ok {
			st.problem(L, "companion.entity(%q): option keys must be names, not %s", kind, k.String())
			return
		}
		if fn, ok := v.(*lua.LFunction); ok {
			f, l := funcPos(fn)
			decl.Funcs[string(key)] = Problem{File: f, Line: l}
			funcs[string(key)] = fn
			return
		}
		value, err := st.conv.fromLua(v)
		if err != nil {
			st.problem(L, "companion.entity(%q): option %s: %v", kind, key, err)
			return
		}
		decl.Fields[string(key)] = value
	})
	st.decl.Entities = append(st.decl.Entities, decl)
	if _, dup := st.funcs[string(kind)]; !dup {
		st.funcs[string(kind)] = funcs
	}
	return 0
}

// declareTypes records companion.types(name, value).
func (st *state) declareTypes(L *lua.LState) int {
	if !st.checkDeclaring(L, "companion.types") {
		return 0
	}
	file, line := callerPos(L)
	name, ok := L.Get(1).(lua.LString)
	if !ok || name == "" {
		st.problem(L, "companion.types: the first argument must be the name of the type table, not %s", L.Get(1).String())
		return 0
	}
	value, err := st.conv.fromLua(L.Get(2))
	if err != nil {
		st.problem(L, "companion.types(%q): %v", name, err)
		return 0
	}
	if L.Get(2) == lua.LNil {
		st.problem(L, "companion.types(%q): the second argument (the values) is missing", name)
		return 0
	}
	st.decl.Types = append(st.decl.Types, &TypeDecl{Name: string(name), File: file, Line: line, Value: value})
	return 0
}

// declareSystem records companion.system{config=..., settings=...}.
func (st *state) declareSystem(L *lua.LState) int {
	if !st.checkDeclaring(L, "companion.system") {
		return 0
	}
	file, line := callerPos(L)
	if _, ok := L.Get(1).(*lua.LTable); !ok {
		st.problem(L, "companion.system: the argument must be a table such as { config = {...}, settings = {...} }")
		return 0
	}
	value, err := st.conv.fromLua(L.Get(1))
	if err != nil {
		st.problem(L, "companion.system: %v", err)
		return 0
	}
	fields, _ := value.(map[string]any)
	if fields == nil {
		fields = map[string]any{} // an empty table converts as an empty array
	}
	if st.decl.System != nil {
		st.problem(L, "companion.system is called twice (first at %s:%d)", st.decl.System.File, st.decl.System.Line)
		return 0
	}
	st.decl.System = &SystemDecl{File: file, Line: line, Fields: fields}
	return 0
}

// markTable returns companion.array / companion.object: mark a table (or a
// new empty one) so that it converts to a JSON array or object even when
// empty.
func (st *state) markTable(mt *lua.LTable) lua.LGFunction {
	return func(L *lua.LState) int {
		t := L.OptTable(1, nil)
		if t != nil && st.frozen.isProxy(t) {
			L.RaiseError("companion.array/object: the table is shared by every call and read-only; mark it while the system loads, or mark a local copy")
		}
		if t == nil {
			t = L.CreateTable(0, 0) // L.NewTable would reserve 32 slots of each kind
		}
		t.Metatable = mt
		L.Push(t)
		return 1
	}
}

func luaSigned(L *lua.LState) int {
	L.Push(signedValue(float64(L.CheckNumber(1))))
	return 1
}

func luaModifier(L *lua.LState) int {
	L.Push(signedValue(textfmt.AbilityModifier(float64(L.CheckNumber(1)))))
	return 1
}

// Signed texts of small integers, boxed once: modifiers and bonuses are
// what views format most, several per entity.
const maxPreboxedSigned = 100

var preboxedSigned = func() (texts [2*maxPreboxedSigned + 1]lua.LValue) {
	for i := range texts {
		texts[i] = lua.LString(textfmt.Signed(float64(i - maxPreboxedSigned)))
	}
	return texts
}()

// signedValue is Signed(n) as a Lua value.
func signedValue(n float64) lua.LValue {
	if n >= -maxPreboxedSigned && n <= maxPreboxedSigned && n == math.Trunc(n) && !(n == 0 && math.Signbit(n)) {
		return preboxedSigned[int(n)+maxPreboxedSigned]
	}
	return lua.LString(textfmt.Signed(n))
}

func luaFraction(L *lua.LState) int {
	L.Push(lua.LString(textfmt.Fraction(float64(L.CheckNumber(1)))))
	return 1
}

func luaOrdinal(L *lua.LState) int {
	n := int64(L.CheckNumber(1))
	if n >= 0 && n < int64(len(preboxedOrdinals)) {
		L.Push(preboxedOrdinals[n])
		return 1
	}
	L.Push(lua.LString(textfmt.Ordinal(n)))
	return 1
}

// Ordinals of levels, ranks and spell levels, boxed once.
var preboxedOrdinals = func() (texts [101]lua.LValue) {
	for i := range texts {
		texts[i] = lua.LString(textfmt.Ordinal(int64(i)))
	}
	return texts
}()

func luaThousands(L *lua.LState) int {
	L.Push(lua.LString(textfmt.Thousands(float64(L.CheckNumber(1)))))
	return 1
}

// join is luaJoin reading through a read-only proxy.
func (st *state) join(L *lua.LState) int {
	st.unwrapArg(L, 1)
	return luaJoin(L)
}

// luaJoin is companion.format.join(list, sep=", ", last=sep).
func luaJoin(L *lua.LState) int {
	list := L.CheckTable(1)
	sep := L.OptString(2, ", ")
	last := L.OptString(3, sep)
	n := list.Len()
	items := make([]string, 0, n)
	size := 0
	for i := 1; i <= n; i++ {
		item := L.ToStringMeta(list.RawGetInt(i)).String()
		items = append(items, item)
		size += len(item) + max(len(sep), len(last))
		if size > maxStringBuild {
			L.RaiseError("companion.format.join would build a string of more than %d bytes (the limit is %d)", size, maxStringBuild)
		}
	}
	L.Push(lua.LString(textfmt.Join(items, sep, last)))
	return 1
}

// diceAverage is companion.dice.average: the floor of the formula's mean,
// as stat blocks print it ("2d6+1" -> 8), from the project's one dice engine
// (the dice package reads the formula exactly as a chat roll would). A system's
// views average the same few formulas over and over ("2d6", "1d8+2"); the
// state remembers the averages (a pure function of the text) rather than
// parsing each again.
func (st *state) diceAverage(L *lua.LState) int {
	formula := L.CheckString(1)
	if avg, ok := st.averages[formula]; ok {
		L.Push(avg)
		return 1
	}
	mean, err := dice.Average(formula)
	if err != nil {
		L.RaiseError("companion.dice.average: %v", err)
	}
	avg := luaNumber(floorAverage(mean))
	if len(formula) <= maxRememberedFormula {
		if len(st.averages) >= maxRememberedAverages {
			clear(st.averages)
		}
		st.averages[formula] = avg
	}
	L.Push(avg)
	return 1
}

// floorAverage rounds a mean down as stat blocks do; a mean of -0.0 (from
// "-0") is written 0, as an integer average always was.
func floorAverage(mean float64) float64 {
	v := math.Floor(mean)
	if v == 0 {
		return 0
	}
	return v
}

// diceAverage's memory is bounded: formulas come from entity data, which
// may hold any number of different ones, of any length.
const (
	maxRememberedAverages = 256
	maxRememberedFormula  = 64
)

// roller rolls companion.dice.roll formulas with the project's dice engine
// (the dice package: the full notation of chat rolls). It is safe for concurrent use.
var roller = dice.NewRoller()

func luaDiceRoll(L *lua.LState) int {
	total, err := roller.Total(L.CheckString(1))
	if err != nil {
		L.RaiseError("companion.dice.roll: %v", err)
	}
	L.Push(luaNumber(float64(total)))
	return 1
}
