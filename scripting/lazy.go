package scripting

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Lazy conversion of the value handed to a call.
//
// A view reads a part of its entity: a monster's stat block reads its
// actions' names and descriptions, never their damage lists, save DCs or
// spell lists, which are most of its tables. Converting all of it to Lua
// before the call (three Go maps and a key list per object) was a third
// of a cold monster view, much of it garbage for the collector.
//
// So, on a frozen state, the value's first levels are converted at once
// (an entity, its data and the lists and objects in it, which nearly
// every view reads) and each non-empty list, or object holding a table,
// deeper than that (lazyDepth) becomes a placeholder: an empty table
// whose metatable (lazyMT, protected like the array/object marks) fills
// it from its Go value on first use, then gives it the object or array
// mark it would have had. After filling it is exactly the table the eager
// conversion makes; the lists and objects in it are placeholders in turn.
// (Making the first levels, or objects of scalars, lazy too cost more
// than it saved: a placeholder costs a metamethod call and a map entry
// more when it is read, and those are read.)
//
// Every way of looking at a table fills a placeholder first:
//
//   - indexing, assigning and # go through __index, __newindex and __len
//     (the placeholder holds no key, so the VM always asks them);
//   - the functions that read or write tables raw (next, pairs, ipairs,
//     rawget, rawset, unpack, table.*, companion.array/object/format.join)
//     and the result conversion already call frozen.unwrap on every table
//     they are given, for the read-only proxies: unwrap fills
//     placeholders;
//   - getmetatable sees the protected metatable (false, as for the
//     marks), setmetatable refuses it (as for the marks); identity,
//     type() and tostring are those of one table throughout.
//
// A table is converted lazily only when every value in it is one the
// eager conversion takes without error (plainTree), so that a value it
// would refuse is still refused before the call, with the same message.
// Placeholders not filled when the call ends are forgotten (afterCall);
// nothing a call made is reachable by later calls (freeze.go).

// lazyDepth is the depth from which tables are converted lazily: in an
// entity (depth 0), data is 1, data.actions 2, an action 3 and its damage
// list, save DC or usage 4.
const lazyDepth = 4

// lazyTables reports whether calls on this state convert lazily.
func (c *converter) lazyTables() bool {
	return c.frozen != nil && fastTables && c.lazyMT != nil
}

// plainTree reports whether v converts eagerly without error: only plain
// JSON values (no json.Number, no Go type needing a JSON round trip),
// nested at most maxDepth levels.
func (c *converter) plainTree(v any, depth int) bool {
	if depth > maxDepth {
		return false
	}
	// A scalar item is plain, unless it would sit past maxDepth itself.
	scalars := depth < maxDepth
	plainItem := func(item any) bool {
		switch item.(type) {
		case string, float64, int64, bool, nil:
			if scalars {
				return true
			}
		}
		return c.plainTree(item, depth+1)
	}
	switch x := v.(type) {
	case nil, string, bool, float64, int64, int, []string:
		return true
	case map[string]any:
		for _, item := range x {
			if !plainItem(item) {
				return false
			}
		}
		return true
	case []any:
		for _, item := range x {
			if !plainItem(item) {
				return false
			}
		}
		return true
	}
	return c.valueNull != nil && v == c.valueNull
}

// lazyValue converts a value of a plainTree: scalars at once, non-empty
// objects and lists as placeholders.
func (c *converter) lazyValue(v any) lua.LValue {
	switch x := v.(type) {
	case string:
		return luaString(v, x) // shares v's box (boxes.go)
	case float64:
		return luaNumber(x)
	case int64:
		return luaNumber(float64(x))
	case bool:
		return lua.LBool(x)
	case nil:
		return c.null
	case int:
		return luaNumber(float64(x))
	case map[string]any:
		if !hasTables(x) {
			// Scalars only (an SRD reference): converting it costs less
			// than a placeholder that is read.
			t := c.objectTable(nil, len(x))
			for k, item := range x {
				c.setKey(t, k, c.lazyValue(item))
			}
			t.Metatable = c.objectMT
			return t
		}
		return c.placeholder(x)
	case []any:
		if len(x) == 0 {
			t := c.arrayTable(nil, nil)
			t.Metatable = c.arrayMT
			return t
		}
		return c.placeholder(x)
	case []string:
		return c.stringList(nil, x)
	}
	return c.null // valueNull: plainTree lets nothing else through
}

// hasTables reports whether an object holds an object or a list: only
// those are worth a placeholder; an object of scalars (an SRD reference,
// a usage) is cheaper to convert than to fill when read.
func hasTables(m map[string]any) bool {
	for _, v := range m {
		switch v.(type) {
		case map[string]any, []any, []string:
			return true
		}
	}
	return false
}

func (c *converter) placeholder(v any) *lua.LTable {
	t := c.newTable()
	t.Metatable = c.lazyMT
	if c.pending == nil {
		c.pending = make(map[*lua.LTable]any, 64)
	}
	c.pending[t] = v
	return t
}

// fill gives a placeholder its keys and its mark; any other table is left
// as it is.
func (c *converter) fill(t *lua.LTable) {
	if t.Metatable != lua.LValue(c.lazyMT) {
		return
	}
	v, ok := c.pending[t]
	if !ok {
		// Not this call's (cannot happen: see freeze.go); show it empty.
		t.Metatable = c.objectMT
		return
	}
	delete(c.pending, t)
	switch x := v.(type) {
	case map[string]any:
		c.fillObject(t, x)
	case []any:
		items := c.values(len(x))
		for _, item := range x {
			items = append(items, c.lazyValue(item))
		}
		(*tableLayout)(unsafe.Pointer(t)).array = items
		t.Metatable = c.arrayMT
	}
}

// fillObject makes t (empty) the object m, as objectTable and setKey do.
func (c *converter) fillObject(t *lua.LTable, m map[string]any) {
	c.initObject(t, len(m))
	for k, item := range m {
		c.setKey(t, k, c.lazyValue(item))
	}
	t.Metatable = c.objectMT
}

// forget drops the placeholders a call did not fill.
func (c *converter) forget() {
	if len(c.pending) > 0 {
		clear(c.pending)
	}
}

// The metamethods of placeholders: fill, then do what the VM does on a
// table with no metamethod.

func (c *converter) lazyIndex(L *lua.LState) int {
	t := L.CheckTable(1)
	c.fill(t)
	L.Push(t.RawGet(L.Get(2)))
	return 1
}

func (c *converter) lazyNewIndex(L *lua.LState) int {
	t := L.CheckTable(1)
	c.fill(t)
	L.RawSet(t, L.Get(2), L.Get(3))
	return 0
}

func (c *converter) lazyLen(L *lua.LState) int {
	t := L.CheckTable(1)
	c.fill(t)
	L.Push(luaNumber(float64(t.Len())))
	return 1
}
