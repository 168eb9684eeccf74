package scripting

import (
	"context"
	"fmt"
	"regexp"
	"sort"

	lua "github.com/yuin/gopher-lua"
)

// The import hook: how a system turns an entry of a legacy compendium
// (Fight Club 5e / Encounter+ XML: a monster, a spell, a class...) into
// entities. A system declares one handler per element kind while it loads:
//
//	companion.import.compendium("monster", function(element) ... end)
//
// The handler receives the element as a table (legacyxml.Element.Table:
// text as strings, repeated children as lists, attributes under _attr)
// and returns an entity table, a list of them, or nil. It takes the
// fields it maps out of the element (companion.import.take); whatever is
// left in the element when it returns is handed back with the result, so
// that the importer keeps it on the entity instead of dropping it.

// ImportDecl is a companion.import.compendium(kind, handler) call.
type ImportDecl struct {
	Kind string
	File string
	Line int
}

// importKindName is an element name as the legacy formats spell them.
var importKindName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

// importModule builds companion.import.
func (st *state) importModule() *lua.LTable {
	return st.L.SetFuncs(st.L.NewTable(), map[string]lua.LGFunction{
		"compendium": st.declareImport,
		"take":       st.importTake,
		"list":       st.importList,
	})
}

// declareImport records companion.import.compendium(kind, handler).
func (st *state) declareImport(L *lua.LState) int {
	if !st.checkDeclaring(L, "companion.import.compendium") {
		return 0
	}
	file, line := callerPos(L)
	kind, ok := L.Get(1).(lua.LString)
	if !ok || !importKindName.MatchString(string(kind)) {
		st.problem(L, "companion.import.compendium: the first argument must be an element name such as \"monster\", not %s", L.Get(1).String())
		return 0
	}
	fn, ok := L.Get(2).(*lua.LFunction)
	if !ok {
		st.problem(L, "companion.import.compendium(%q, ...): the second argument must be the function that maps the element, not a %s", kind, L.Get(2).Type().String())
		return 0
	}
	for _, d := range st.decl.Imports {
		if d.Kind == string(kind) {
			st.problem(L, "companion.import.compendium(%q) is declared twice (first at %s:%d)", kind, d.File, d.Line)
			return 0
		}
	}
	st.decl.Imports = append(st.decl.Imports, &ImportDecl{Kind: string(kind), File: file, Line: line})
	st.imports[string(kind)] = fn
	return 0
}

// importTake is companion.import.take(element, key): the value under key,
// removed from the element (so that it does not end up unmapped).
func (st *state) importTake(L *lua.LState) int {
	t := L.CheckTable(1)
	if st.frozen.isProxy(t) {
		L.RaiseError("companion.import.take: the table is shared by every call and read-only; take from the element the handler received")
	}
	t = st.frozen.unwrap(t)
	key := L.CheckString(2)
	v := t.RawGetString(key)
	t.RawSetString(key, lua.LNil)
	L.Push(v)
	return 1
}

// importList is companion.import.list(value): a list whatever the value:
// nil is an empty list, a list is itself, anything else a list of one.
// (An element that appears once is a value, twice a list.)
func (st *state) importList(L *lua.LState) int {
	v := L.Get(1)
	if t, ok := v.(*lua.LTable); ok {
		real := st.frozen.unwrap(t)
		if real.Metatable == st.conv.arrayMT || real.RawGetInt(1) != lua.LNil {
			L.Push(t)
			return 1
		}
	}
	out := L.CreateTable(1, 0)
	if v != lua.LNil && v != st.conv.null {
		out.RawSetInt(1, v)
	}
	out.Metatable = st.conv.arrayMT
	L.Push(out)
	return 1
}

// ImportKinds lists the element kinds the system has import handlers
// for, sorted.
func (rt *Runtime) ImportKinds() []string {
	out := make([]string, 0, len(rt.decl.Imports))
	for _, d := range rt.decl.Imports {
		out = append(out, d.Kind)
	}
	sort.Strings(out)
	return out
}

// HasImport reports whether the system has an import handler for kind.
func (rt *Runtime) HasImport(kind string) bool {
	file, _ := rt.ImportPos(kind)
	return file != ""
}

// ImportPos is where the handler of kind is declared.
func (rt *Runtime) ImportPos(kind string) (string, int) {
	for _, d := range rt.decl.Imports {
		if d.Kind == kind {
			return d.File, d.Line
		}
	}
	return "", 0
}

// CallImport runs the compendium import handler of kind with element
// (a JSON value: the element's table). It returns what the handler
// returned (nil, a map or a list, as JSON values) and what it left in the
// element (nil when nothing is left). A Lua error, a timeout, the memory
// limit or a result that is not JSON is a *ScriptError naming file and
// line; the state it happened in is discarded.
func (rt *Runtime) CallImport(ctx context.Context, kind string, element map[string]any) (result any, rest map[string]any, err error) {
	st, err := rt.acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	fn := st.imports[kind]
	if fn == nil {
		rt.release(st)
		return nil, nil, fmt.Errorf("the system has no import handler for %q", kind)
	}
	L := st.L
	larg, err := st.conv.toLua(L, element)
	if err != nil {
		rt.release(st)
		return nil, nil, fmt.Errorf("cannot pass the %s to Lua: %v", kind, err)
	}
	st.deadline.arm(ctx, rt.opts.CallTimeout)
	L.SetContext(st.deadline)
	L.Push(fn)
	L.Push(larg)
	err = L.PCall(1, 1, nil)
	L.RemoveContext()
	st.deadline.disarm()
	if err != nil {
		err = rt.scriptError(st.describeRaised(err), st.deadline)
		L.SetTop(0)
		rt.discard(st)
		return nil, nil, err
	}
	ret := L.Get(-1)
	L.Pop(1)
	result, err = st.conv.fromLua(ret)
	if err == nil {
		var left any
		if left, err = st.conv.fromLua(larg); err == nil {
			rest, _ = left.(map[string]any) // an emptied element converts as an empty list
			if len(rest) == 0 {
				rest = nil
			}
		} else {
			file, line := funcPos(fn)
			err = &ScriptError{Problem: Problem{File: file, Line: line,
				Message: fmt.Sprintf("the compendium import handler of %q left a value in the element that is not JSON: %v", kind, err)}}
		}
	} else {
		file, line := funcPos(fn)
		err = &ScriptError{Problem: Problem{File: file, Line: line,
			Message: fmt.Sprintf("the compendium import handler of %q returned a value that is not JSON: %v", kind, err)}}
	}
	st.afterCall()
	rt.release(st)
	if err != nil {
		return nil, nil, err
	}
	return result, rest, nil
}
