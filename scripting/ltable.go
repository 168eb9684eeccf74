package scripting

import (
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Building tables for gopher-lua quickly.
//
// lua.LTable.RawSetString keeps three structures per string key (the value
// map, an insertion-ordered key list and a key->position map), starts the
// list empty and the position map at zero size, and boxes the key into a
// new interface value each time. Converting an entity of a few hundred
// keys spends most of its time growing those and in the garbage they
// leave. A table built here has all three sized once, and its keys boxed
// once per state (internedKey).
//
// The fields are unexported, so tableLayout mirrors lua.LTable. The mirror
// is checked against the real type with reflect when the package starts
// (fastTables); if gopher-lua ever changes the layout the converter falls
// back to the public API, which gives the same tables, only slower.

// tableLayout mirrors lua.LTable of gopher-lua v1.1.x field by field.
type tableLayout struct {
	Metatable lua.LValue

	array   []lua.LValue
	dict    map[lua.LValue]lua.LValue
	strdict map[string]lua.LValue
	keys    []lua.LValue
	k2i     map[lua.LValue]int
}

// fastTables is set when tableLayout matches lua.LTable exactly.
var fastTables = sameLayout(reflect.TypeFor[lua.LTable](), reflect.TypeFor[tableLayout]())

func sameLayout(real, mirror reflect.Type) bool {
	if real.Size() != mirror.Size() || real.NumField() != mirror.NumField() {
		return false
	}
	for i := 0; i < real.NumField(); i++ {
		a, b := real.Field(i), mirror.Field(i)
		if a.Name != b.Name || a.Type != b.Type || a.Offset != b.Offset {
			return false
		}
	}
	return true
}

// maxInterned bounds the keys a state keeps boxed: entity data may have
// keys that never repeat.
const maxInterned = 4096

// internedKey returns key as a boxed lua.LString, the same box for the same
// key within a state.
func (c *converter) internedKey(key string) lua.LValue {
	if lk, ok := c.keys[key]; ok {
		return lk
	}
	lk := lua.LValue(lua.LString(key))
	if len(c.keys) < maxInterned {
		c.keys[key] = lk
	}
	return lk
}

// Tables and their key lists are carved from chunks rather than allocated
// one by one: a monster's data is a few dozen tables, each of which would
// otherwise be two more allocations. A chunk is only ever handed out once
// (the rest of it waits for the next table), so nothing is shared between
// tables; a chunk is freed when none of its tables is referenced.
const (
	tableChunk = 64
	valueChunk = 512
)

func (c *converter) newTable() *lua.LTable {
	if len(c.tables) == 0 {
		c.tables = make([]lua.LTable, tableChunk)
	}
	t := &c.tables[0]
	c.tables = c.tables[1:]
	return t
}

// values returns an empty slice with room for n values; appending beyond n
// reallocates, it never spills into the next slice of the chunk.
func (c *converter) values(n int) []lua.LValue {
	if n > valueChunk/4 {
		return make([]lua.LValue, 0, n)
	}
	if len(c.slab) < n {
		c.slab = make([]lua.LValue, valueChunk)
	}
	s := c.slab[:0:n]
	c.slab = c.slab[n:]
	return s
}

// objectTable returns an empty table with room for n string keys; fill it
// with setKey, each key once (the keys of a Go map).
func (c *converter) objectTable(L *lua.LState, n int) *lua.LTable {
	if !fastTables {
		return L.CreateTable(0, n)
	}
	t := c.newTable()
	c.initObject(t, n)
	return t
}

// initObject makes t, a table from newTable, an empty table with room for
// n string keys (fastTables only).
//
// Only the value map is made: the key list and key->position map serve
// next() alone, and most converted tables are never iterated; indexKeys
// builds them when one is (see there).
func (c *converter) initObject(t *lua.LTable, n int) {
	m := (*tableLayout)(unsafe.Pointer(t))
	m.Metatable = lua.LNil
	if n == 0 {
		return // as CreateTable(0, 0): no parts until a key is set
	}
	m.strdict = make(map[string]lua.LValue, n)
}

// setKey sets a key not yet in t (made by objectTable) to v (not nil), as
// RawSetString would, but leaves the key list to indexKeys.
func (c *converter) setKey(t *lua.LTable, key string, v lua.LValue) {
	if !fastTables {
		t.RawSetString(key, v)
		return
	}
	m := (*tableLayout)(unsafe.Pointer(t))
	if m.strdict == nil {
		t.RawSetString(key, v)
		return
	}
	m.strdict[key] = v
}

// indexKeys makes sure t's key list and key->position map (which
// gopher-lua's LTable.Next walks) hold every key of t before next(t, key)
// runs. A converted object is made without them (initObject); gopher-lua
// itself only adds the keys set from then on (RawSetString starts an empty
// list), so the list may lack keys until indexKeys adds them. It runs at
// the start of every traversal (key nil) and for a key the map lacks:
// within a traversal the list then holds every key and stays as it is
// (Lua leaves adding keys during a traversal undefined), so each key is
// visited once, as with a table made in Lua.
func (c *converter) indexKeys(t *lua.LTable, key lua.LValue) {
	if !fastTables {
		return
	}
	m := (*tableLayout)(unsafe.Pointer(t))
	n := len(m.strdict) + len(m.dict)
	if n == 0 {
		return
	}
	if key != lua.LNil && m.k2i != nil {
		if _, ok := m.k2i[key]; ok {
			return
		}
	}
	if m.k2i == nil {
		m.k2i = make(map[lua.LValue]int, n)
	}
	if len(m.k2i) == 0 && cap(m.keys) < n {
		m.keys = make([]lua.LValue, 0, n)
	}
	for k := range m.strdict {
		lk := c.internedKey(k)
		if _, ok := m.k2i[lk]; !ok {
			m.k2i[lk] = len(m.keys)
			m.keys = append(m.keys, lk)
		}
	}
	for k := range m.dict {
		if _, ok := m.k2i[k]; !ok {
			m.k2i[k] = len(m.keys)
			m.keys = append(m.keys, k)
		}
	}
}

// arrayTable returns a table whose array part is items (none of them nil).
func (c *converter) arrayTable(L *lua.LState, items []lua.LValue) *lua.LTable {
	if !fastTables {
		t := L.CreateTable(len(items), 0)
		for _, v := range items {
			t.Append(v)
		}
		return t
	}
	t := c.newTable()
	m := (*tableLayout)(unsafe.Pointer(t))
	m.Metatable = lua.LNil
	if len(items) > 0 {
		m.array = items
	}
	return t
}

// quickShape classifies the two common tables without visiting every key:
// a list with no holes (only the array part) and a table with string keys
// only. ok is false for any other table (shape then looks at every key).
func (c *converter) quickShape(t *lua.LTable) (shape tableShape, n int, ok bool) {
	if !fastTables {
		return shapeBad, 0, false
	}
	m := (*tableLayout)(unsafe.Pointer(t))
	if len(m.dict) != 0 {
		return shapeBad, 0, false
	}
	items, last := 0, 0
	for i, v := range m.array {
		if v != lua.LNil {
			items++
			last = i + 1
		}
	}
	switch {
	case len(m.strdict) == 0 && items == last && t.Metatable != c.objectMT:
		if items == 0 {
			return shapeArray, 0, true // an empty, unmarked table: []
		}
		return shapeArray, items, true
	case items == 0 && len(m.strdict) > 0:
		return shapeObject, len(m.strdict), true
	}
	return shapeBad, 0, false
}

// stringKeysOnly returns t's string-keyed part when t has no other keys.
func (c *converter) stringKeysOnly(t *lua.LTable) (map[string]lua.LValue, bool) {
	if !fastTables {
		return nil, false
	}
	m := (*tableLayout)(unsafe.Pointer(t))
	if len(m.dict) != 0 {
		return nil, false
	}
	for _, v := range m.array {
		if v != lua.LNil {
			return nil, false
		}
	}
	return m.strdict, true
}
