package scripting

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// state is one prepared Lua state of a pool: the sandbox, the companion
// module, the system's scripts run once, and the functions they declared.
type state struct {
	L        *lua.LState
	conv     *converter
	deadline *callDeadline // the deadline of the call running on L
	prog     *Program

	// funcs holds the functions declared per kind: funcs[kind][field].
	funcs map[string]map[string]*lua.LFunction
	// imports holds the compendium import handlers by element kind
	// (importhook.go).
	imports map[string]*lua.LFunction
	// decl collects declarations while the entry script runs.
	decl      *Declarations
	declaring bool

	loaded  map[string]lua.LValue // require cache, by file
	loading map[string]bool       // files being required (cycle detection)
	module  *lua.LTable           // the companion module
	print   func(string)
	// frozen is set once the entry script has run: what calls share is
	// read-only from then on (see freeze.go).
	frozen *frozen
	// callLoaded caches, for one call, the modules it required that were
	// not loaded with the system.
	callLoaded map[string]lua.LValue
	// averages remembers companion.dice.average results by formula.
	averages map[string]lua.LValue
	// raised is the last non-string error object raised (builtins.go).
	raised raisedError
}

// afterCall puts the state back as the entry script left it.
func (st *state) afterCall() {
	st.frozen.reset()
	st.conv.forget()
	if st.callLoaded != nil {
		clear(st.callLoaded)
	}
}

func newState(prog *Program, print func(string)) *state {
	L := newSandbox()
	st := &state{
		L:        L,
		conv:     newConverter(L),
		deadline: newCallDeadline(),
		prog:     prog,
		funcs:    map[string]map[string]*lua.LFunction{},
		imports:  map[string]*lua.LFunction{},
		decl:     &Declarations{},
		loaded:   map[string]lua.LValue{},
		loading:  map[string]bool{},
		print:    print,
		averages: map[string]lua.LValue{},
	}
	st.module = st.companionModule()
	installBoundedBuiltins(L, st.noteRaised)
	st.installGuards()
	L.SetGlobal("require", L.NewFunction(st.require))
	L.SetGlobal("print", L.NewFunction(st.luaPrint))
	return st
}

// runEntry runs the entry script, which declares the system.
func (st *state) runEntry() error {
	st.declaring = true
	defer func() { st.declaring = false }()
	_, err := st.requireFile(st.prog.entry)
	return err
}

// require resolves a module name to a file inside the system folder.
func (st *state) require(L *lua.LState) int {
	name := L.CheckString(1)
	if name == "companion" {
		L.Push(st.module)
		return 1
	}
	file, err := modulePath(name)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	if _, ok := st.prog.protos[file]; !ok {
		L.RaiseError("module %q not found: there is no %s in the system folder", name, file)
	}
	if st.loading[file] {
		L.RaiseError("module %q requires itself (a require cycle through %s)", name, file)
	}
	cache := st.loaded
	if st.frozen != nil {
		if value, ok := st.loaded[file]; ok {
			L.Push(value)
			return 1
		}
		// A module first required during a call runs for that call only:
		// keeping it would keep what that call saw for the next ones.
		if st.callLoaded == nil {
			st.callLoaded = map[string]lua.LValue{}
		}
		cache = st.callLoaded
	}
	value, ok := cache[file]
	if !ok {
		st.loading[file] = true
		L.Push(L.NewFunctionFromProto(st.prog.protos[file]))
		L.Call(0, 1)
		value = L.Get(-1)
		L.Pop(1)
		delete(st.loading, file)
		if value == lua.LNil {
			value = lua.LTrue
		}
		cache[file] = value
	}
	L.Push(value)
	return 1
}

// requireFile runs a compiled file in protected mode, once.
func (st *state) requireFile(file string) (lua.LValue, error) {
	L := st.L
	st.loading[file] = true
	defer delete(st.loading, file)
	L.Push(L.NewFunctionFromProto(st.prog.protos[file]))
	if err := L.PCall(0, 1, nil); err != nil {
		return nil, err
	}
	value := L.Get(-1)
	L.Pop(1)
	st.loaded[file] = value
	return value, nil
}

func (st *state) luaPrint(L *lua.LState) int {
	if st.print == nil {
		return 0
	}
	// One log line: built once (not by repeated concatenation, which
	// print(unpack(t)) made quadratic) and cut at maxPrintBytes.
	var text strings.Builder
	top := L.GetTop()
	for i := 1; i <= top && text.Len() <= maxPrintBytes; i++ {
		if i > 1 {
			text.WriteByte('\t')
		}
		text.WriteString(L.ToStringMeta(L.Get(i)).String())
	}
	st.print(cutText(text.String(), maxPrintBytes))
	return 0
}

func (st *state) close() {
	st.deadline.close()
	st.L.Close()
}
