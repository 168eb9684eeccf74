package scripting

import (
	lua "github.com/yuin/gopher-lua"
)

// The grid hook: a system's rules for the map's grid, declared once while
// it loads:
//
//	companion.grid {
//	  squares = function(template) ... end,  -- the cells an area template covers
//	  distance = function(path) ... end,     -- how far a path goes
//	}
//
// Both are optional; the server falls back to plain geometry without them
// (core/templates.go). They are called like a kind's functions, under the
// kind name GridHooks (Runtime.Call(ctx, GridHooks, "squares", arg)).

// GridHooks is the kind name the grid hook's functions are called under;
// no entity kind can have it (kinds are lower-case names).
const GridHooks = "@grid"

// gridFields are the functions companion.grid takes.
var gridFields = map[string]bool{"squares": true, "distance": true}

// GridDecl is a companion.grid{...} call: where it and its functions are.
type GridDecl struct {
	File  string
	Line  int
	Funcs map[string]Problem
}

// declareGrid records companion.grid{squares = fn, distance = fn}.
func (st *state) declareGrid(L *lua.LState) int {
	if !st.checkDeclaring(L, "companion.grid") {
		return 0
	}
	file, line := callerPos(L)
	opts, ok := L.Get(1).(*lua.LTable)
	if !ok {
		st.problem(L, "companion.grid: the argument must be a table such as { squares = function(template) ... end, distance = function(path) ... end }")
		return 0
	}
	decl := &GridDecl{File: file, Line: line, Funcs: map[string]Problem{}}
	funcs := map[string]*lua.LFunction{}
	opts.ForEach(func(k, v lua.LValue) {
		key, _ := k.(lua.LString)
		fn, isFunc := v.(*lua.LFunction)
		if !gridFields[string(key)] || !isFunc {
			st.problem(L, "companion.grid: %s is not one of its functions (squares, distance)", k.String())
			return
		}
		f, l := funcPos(fn)
		decl.Funcs[string(key)] = Problem{File: f, Line: l}
		funcs[string(key)] = fn
	})
	if st.decl.Grid != nil {
		st.problem(L, "companion.grid is called twice (first at %s:%d)", st.decl.Grid.File, st.decl.Grid.Line)
		return 0
	}
	st.decl.Grid = decl
	st.funcs[GridHooks] = funcs
	return 0
}
