package scripting

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Isolation of pooled calls.
//
// A state of the pool serves calls for many entities (and many players),
// so nothing one call does may be seen by the next. After the entry script
// has run, everything a call could reach that outlives it is frozen:
//
//   - Globals: the globals table becomes a per-call scratch table whose
//     (protected) metatable reads through to the globals the system
//     defined while loading. Global assignments and rawset(_G, ...) land
//     in the scratch table, which is emptied after every call; the
//     metatable cannot be changed (setmetatable(_G) is refused).
//   - Shared tables: every table reachable from those globals, from the
//     companion module, from the modules require has loaded and from the
//     upvalues of their functions (string, table, math, companion,
//     companion.format, lib modules, a module's local lookup tables) is
//     replaced by a read-only proxy: an empty table whose protected
//     metatable reads from the real table (__index, __len) and refuses
//     writes (__newindex). rawset, table.insert/remove/sort and
//     companion.array/object refuse proxies; rawget, next, pairs, ipairs,
//     unpack, table.concat and the JSON conversion read through them.
//   - The string metatable keeps the real string table as __index (method
//     calls stay as fast as before) but is protected: getmetatable("")
//     returns a read-only view of it.
//   - Upvalues holding numbers, strings or booleans (a chunk-level
//     `local count = 0` a view increments) are put back after every call.
//   - A module first required during a call runs for that call only and
//     is not cached.
//
// The alternative, checking a fingerprint of the shared tables after each
// call and discarding a state that changed, costs a walk of every shared
// table per call (hundreds of entries for dnd5e) and silently rebuilds
// states on every call of a script that writes a global; freezing costs
// one walk when a state is prepared and nothing per call beyond emptying
// the scratch table and comparing the recorded upvalues.
type frozen struct {
	target   map[*lua.LTable]*lua.LTable // proxy -> the table it shows
	proxy    map[*lua.LTable]*lua.LTable // table -> its proxy
	fns      map[*lua.LFunction]bool     // functions whose upvalues were frozen
	uvs      map[*lua.Upvalue]bool       // upvalues recorded (closures share them)
	upvalues []frozenUpvalue
	globals  *lua.LTable // the scratch globals table (L.G.Global)
	globalMT *lua.LTable // its metatable, reading through to the frozen globals

	newindex *lua.LFunction
	length   *lua.LFunction
	// marks are the metatables of companion.array/object: every table
	// converted from JSON carries one, and no proxy does (a proxy's
	// metatable is its own), so unwrap answers them without a lookup.
	arrayMT, objectMT lua.LValue
	// lazyMT marks a placeholder of the lazy conversion, which unwrap
	// fills (see lazy.go).
	lazyMT lua.LValue
	fill   func(*lua.LTable)
}

type frozenUpvalue struct {
	uv    *lua.Upvalue
	value lua.LValue
}

// freeze makes everything the state's calls share read-only (see above);
// it runs once, after the entry script.
func (st *state) freeze() {
	L := st.L
	f := &frozen{
		target:  map[*lua.LTable]*lua.LTable{},
		proxy:   map[*lua.LTable]*lua.LTable{},
		fns:     map[*lua.LFunction]bool{},
		uvs:     map[*lua.Upvalue]bool{},
		globals: L.G.Global,
	}
	st.frozen = f
	st.conv.frozen = f
	f.arrayMT, f.objectMT = st.conv.arrayMT, st.conv.objectMT
	f.lazyMT, f.fill = st.conv.lazyMT, st.conv.fill
	f.newindex = L.NewFunction(refuseWrite)
	f.length = L.NewFunction(f.proxyLen)

	// The globals the system defined move to a table only the scratch
	// table's metatable reaches.
	shared := L.CreateTable(0, 64)
	var keys, values []lua.LValue
	f.globals.ForEach(func(k, v lua.LValue) {
		keys = append(keys, k)
		values = append(values, v)
	})
	for i, k := range keys {
		if values[i] == f.globals { // _G stays the scratch table
			shared.RawSet(k, values[i])
			continue
		}
		shared.RawSet(k, f.value(values[i]))
	}
	f.globalMT = L.CreateTable(0, 2)
	f.globalMT.RawSetString("__index", shared)
	f.globalMT.RawSetString("__metatable", lua.LFalse)
	f.resetGlobals()

	// The string metatable: protected, shown as a read-only view.
	if smt, ok := L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		view := L.CreateTable(0, 1)
		view.RawSetString("__index", f.value(smt.RawGetString("__index")))
		smt.RawSetString("__metatable", f.table(view))
	}
	// The marks of companion.array/object and companion.null.
	for _, mt := range []lua.LValue{st.conv.arrayMT, st.conv.objectMT, st.conv.null.Metatable, st.conv.lazyMT} {
		if t, ok := mt.(*lua.LTable); ok {
			t.RawSetString("__metatable", lua.LFalse)
		}
	}

	st.module = f.value(st.module).(*lua.LTable)
	for file, v := range st.loaded {
		st.loaded[file] = f.value(v)
	}
	for _, funcs := range st.funcs {
		for _, fn := range funcs {
			f.function(fn)
		}
	}
	for _, fn := range st.imports {
		f.function(fn)
	}
}

// value returns what a shared value becomes: a proxy for a table; a
// function has its upvalues frozen.
func (f *frozen) value(v lua.LValue) lua.LValue {
	switch x := v.(type) {
	case *lua.LTable:
		return f.table(x)
	case *lua.LFunction:
		f.function(x)
	}
	return v
}

// table returns t's read-only proxy, freezing what t holds.
func (f *frozen) table(t *lua.LTable) *lua.LTable {
	if _, isProxy := f.target[t]; isProxy || t == f.globals {
		return t
	}
	if p, ok := f.proxy[t]; ok {
		return p
	}
	mt := &lua.LTable{Metatable: lua.LNil}
	mt.RawSetString("__index", t)
	mt.RawSetString("__newindex", f.newindex)
	mt.RawSetString("__len", f.length)
	mt.RawSetString("__metatable", lua.LFalse)
	p := &lua.LTable{Metatable: mt}
	f.proxy[t], f.target[p] = p, t

	var keys, values []lua.LValue
	t.ForEach(func(k, v lua.LValue) {
		keys = append(keys, k)
		values = append(values, v)
	})
	for i, k := range keys {
		nv := f.value(values[i])
		if kt, ok := k.(*lua.LTable); ok {
			// Every other reference to a table becomes its proxy, so
			// the key must too (to stay reachable and read-only).
			t.RawSet(k, lua.LNil)
			t.RawSet(f.table(kt), nv)
			continue
		}
		if nv != values[i] {
			t.RawSet(k, nv)
		}
	}
	// A metatable stays the real table (metamethods are read raw) but
	// what it holds is frozen.
	if tmt, ok := t.Metatable.(*lua.LTable); ok {
		f.table(tmt)
	}
	return p
}

// function freezes the tables a Lua function reaches through its upvalues
// and records the others, which reset puts back after each call.
func (f *frozen) function(fn *lua.LFunction) {
	if fn.IsG || f.fns[fn] {
		return
	}
	f.fns[fn] = true
	for _, uv := range fn.Upvalues {
		if uv == nil || f.uvs[uv] {
			continue
		}
		f.uvs[uv] = true
		v := uv.Value()
		nv := f.value(v)
		if nv != v {
			uv.SetValue(nv)
		}
		f.upvalues = append(f.upvalues, frozenUpvalue{uv: uv, value: nv})
	}
}

// reset undoes what a call left behind: scratch globals and changed
// upvalues.
func (f *frozen) reset() {
	if f == nil {
		return
	}
	f.resetGlobals()
	for i := range f.upvalues {
		u := &f.upvalues[i]
		if u.uv.Value() != u.value {
			u.uv.SetValue(u.value)
		}
	}
}

// resetGlobals empties the scratch globals table in place (every function
// holds it as its environment): a fresh table costs no allocation and no
// walk, whatever the call stored.
//
// A call that wrote no global left the table as reset made it (no parts,
// the same metatable): then there is nothing to reset, and skipping the
// write of the whole table keeps a pointer store (and, while the collector
// marks, its write barriers) off every call. Any write, rawset included,
// gives the table a part, so it cannot go unnoticed.
func (f *frozen) resetGlobals() {
	if fastTables {
		g := (*tableLayout)(unsafe.Pointer(f.globals))
		if g.Metatable == lua.LValue(f.globalMT) && g.array == nil && g.dict == nil && g.strdict == nil && g.keys == nil && g.k2i == nil {
			return
		}
	}
	*f.globals = lua.LTable{Metatable: f.globalMT}
}

// unwrap returns the table a proxy shows, or t (a placeholder of the
// lazy conversion filled).
func (f *frozen) unwrap(t *lua.LTable) *lua.LTable {
	if f == nil {
		return t
	}
	mt, hasMT := t.Metatable.(*lua.LTable)
	if !hasMT || lua.LValue(mt) == f.arrayMT || lua.LValue(mt) == f.objectMT {
		return t
	}
	if lua.LValue(mt) == f.lazyMT {
		f.fill(t)
		return t
	}
	if real, ok := f.target[t]; ok {
		return real
	}
	return t
}

// isProxy reports whether t is a read-only proxy.
func (f *frozen) isProxy(t *lua.LTable) bool {
	return f != nil && f.unwrap(t) != t
}

// proxyLen is the __len of proxies.
func (f *frozen) proxyLen(L *lua.LState) int {
	L.Push(luaNumber(float64(f.unwrap(L.CheckTable(1)).Len())))
	return 1
}

// refuseWrite is the __newindex of proxies.
func refuseWrite(L *lua.LState) int {
	L.RaiseError("cannot set %s: tables shared by every call (the system's globals, modules, the companion module and the string, table and math libraries) are read-only while a view or other function runs; build your own local table instead", describeKey(L.Get(2)))
	return 0
}

func describeKey(k lua.LValue) string {
	if s, ok := k.(lua.LString); ok {
		return "field \"" + string(s) + "\""
	}
	return "key " + k.String()
}
