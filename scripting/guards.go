package scripting

import (
	lua "github.com/yuin/gopher-lua"
)

// The base and table functions that look at a table's own slots (raw
// access) would see a read-only proxy as the empty table it is, or write
// into it. installGuards wraps them: readers see the table behind a proxy,
// writers refuse proxies. Before the state is frozen (while the entry
// script runs) there are no proxies and they behave as gopher-lua's.
func (st *state) installGuards() {
	L := st.L
	base := L.G.Global
	tbl, _ := L.GetGlobal("table").(*lua.LTable)
	readers := map[*lua.LTable][]string{
		base: {"rawget", "unpack"},
		tbl:  {"maxn", "getn"},
	}
	for lib, names := range readers {
		for _, name := range names {
			if orig, ok := lib.RawGetString(name).(*lua.LFunction); ok && orig.IsG {
				lib.RawSetString(name, L.NewFunction(st.readThrough(orig.GFunction)))
			}
		}
	}
	writers := map[*lua.LTable][]string{
		base: {"rawset"},
		tbl:  {"insert", "remove", "sort"},
	}
	for lib, names := range writers {
		for _, name := range names {
			if orig, ok := lib.RawGetString(name).(*lua.LFunction); ok && orig.IsG {
				prefix := name
				if lib == tbl {
					prefix = "table." + name
				}
				lib.RawSetString(name, L.NewFunction(st.refuseProxy(prefix, orig.GFunction)))
			}
		}
	}
	if orig, ok := tbl.RawGetString("concat").(*lua.LFunction); ok && orig.IsG {
		tbl.RawSetString("concat", L.NewFunction(st.boundedConcat(orig.GFunction)))
	}
	next := L.NewFunction(st.next)
	base.RawSetString("next", next)
	base.RawSetString("pairs", L.NewClosure(st.pairs, next))
	base.RawSetString("ipairs", L.NewClosure(st.ipairs, L.NewFunction(st.ipairsNext)))
	if orig, ok := base.RawGetString("setmetatable").(*lua.LFunction); ok && orig.IsG {
		base.RawSetString("setmetatable", L.NewFunction(st.setMetatable(orig.GFunction)))
	}
	base.RawSetString("getmetatable", L.NewFunction(st.getMetatable))
}

// unwrapArg replaces a proxy at stack index n by the table it shows.
func (st *state) unwrapArg(L *lua.LState, n int) {
	if t, ok := L.Get(n).(*lua.LTable); ok && st.frozen != nil {
		if real := st.frozen.unwrap(t); real != t {
			L.Replace(n, real)
		}
	}
}

func (st *state) readThrough(orig lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		st.unwrapArg(L, 1)
		return orig(L)
	}
}

func (st *state) refuseProxy(name string, orig lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok && st.frozen.isProxy(t) {
			L.RaiseError("%s: the table is shared by every call and read-only (globals, modules and libraries cannot be changed while a view or other function runs); copy it into a local table first", name)
		}
		return orig(L)
	}
}

// boundedConcat is table.concat reading through proxies and refusing to
// build more than maxStringBuild bytes.
func (st *state) boundedConcat(orig lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		st.unwrapArg(L, 1)
		t := L.CheckTable(1)
		sep := L.OptString(2, "")
		n := t.Len()
		i, j := max(L.OptInt(3, 1), 1), min(L.OptInt(4, n), n)
		size := 0
		for k := i; k <= j; k++ {
			switch v := t.RawGetInt(k).(type) {
			case lua.LString:
				size += len(v)
			case lua.LNumber:
				size += 24
			}
			if k < j {
				size += len(sep)
			}
			if size > maxStringBuild {
				L.RaiseError("table.concat would build a string of more than %d bytes (the limit is %d)", size, maxStringBuild)
			}
		}
		return orig(L)
	}
}

func (st *state) next(L *lua.LState) int {
	st.unwrapArg(L, 1)
	tb := L.CheckTable(1)
	if mt := tb.Metatable; mt == lua.LValue(st.conv.objectMT) || mt == lua.LValue(st.conv.arrayMT) {
		// A converted table (or one marked in Lua) may have its key
		// list to complete (ltable.go).
		st.conv.indexKeys(tb, L.Get(2))
	}
	key, value := tb.Next(L.Get(2))
	if key == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(key)
	L.Push(value)
	return 2
}

// pairs and ipairs hand the table itself (a proxy stays a proxy: the
// table behind it must never reach Lua) to iterators that read through.
func (st *state) pairs(L *lua.LState) int {
	tb := L.CheckTable(1)
	L.Push(L.Get(lua.UpvalueIndex(1)))
	L.Push(tb)
	L.Push(lua.LNil)
	return 3
}

func (st *state) ipairs(L *lua.LState) int {
	tb := L.CheckTable(1)
	L.Push(L.Get(lua.UpvalueIndex(1)))
	L.Push(tb)
	L.Push(lua.LNumber(0))
	return 3
}

func (st *state) ipairsNext(L *lua.LState) int {
	tb := st.frozen.unwrap(L.CheckTable(1))
	i := L.CheckInt(2) + 1
	v := tb.RawGetInt(i)
	if v == lua.LNil {
		return 0
	}
	L.Pop(1)
	L.Push(luaNumber(float64(i)))
	L.Push(v)
	return 2
}

// setMetatable lets a read-only proxy serve as a metatable (the class
// pattern: setmetatable(obj, Module.Class)): metamethods are read raw, so
// the table behind the proxy is set, and getmetatable hands back the proxy.
func (st *state) setMetatable(orig lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		st.unwrapArg(L, 2)
		return orig(L)
	}
}

func (st *state) getMetatable(L *lua.LState) int {
	mt, ok := L.GetMetatable(L.CheckAny(1)).(*lua.LTable)
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	if protected := mt.RawGetString("__metatable"); protected != lua.LNil {
		L.Push(protected)
		return 1
	}
	if st.frozen != nil {
		if p, isShared := st.frozen.proxy[mt]; isShared {
			L.Push(p)
			return 1
		}
	}
	L.Push(mt)
	return 1
}
