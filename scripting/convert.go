package scripting

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Conversion rules between JSON values (as encoding/json decodes them, or
// int64 for integers) and Lua:
//
//   - JSON objects become tables marked with the object metatable, arrays
//     become sequences marked with the array metatable, so that an empty
//     JSON array or object converts back to the same thing.
//   - A table made in Lua is an array when its keys are exactly 1..n, an
//     object when its keys are strings (or sparse integers, which become
//     string keys). An unmarked empty table is an empty array; use
//     companion.object() to return an empty object. Tables mixing list items
//     and named keys are an error.
//   - Numbers: Lua has one number type (float64). A number with no fraction
//     and magnitude up to 2^53 converts back as an integer (int64), any
//     other as a float64: 1 stays 1, 1.5 stays 1.5. Integers beyond 2^53
//     cannot be held exactly and are out of the I-JSON range we support.
//   - JSON null is the companion.null sentinel (so it can sit inside a
//     sequence); nil and companion.null both convert back to null.

// maxJSONScratch bounds the JSON scratch buffer a state keeps between
// calls: one huge view does not pin its size for the state's lifetime.
const maxJSONScratch = 256 << 10

// maxDepth bounds nesting so that a cyclic Lua table is an error, not a hang.
const maxDepth = 100

// maxResultSize bounds what one conversion from Lua may build: strings
// count their length, every other value and table slot valueCost bytes.
// Depth alone does not bound it: a table held twice at every level
// (t = {t, t}, fifty times over) is a few hundred bytes in Lua and 2^50
// values written out, and the conversion runs in Go, past the reach of
// the call's deadline. A view is a few kilobytes.
const (
	maxResultSize = 8 << 20
	valueCost     = 16
)

// maxExactInt is the largest integer a float64 holds exactly.
const maxExactInt = 1 << 53

type converter struct {
	keys    map[string]lua.LValue // interned table keys (see internedKey)
	tables  []lua.LTable          // chunk of tables to hand out (newTable)
	slab    []lua.LValue          // chunk of value slices to hand out (values)
	fields  []jsonField           // stack of object fields being written (appendTable)
	jsonBuf []byte                // scratch buffer of CallJSON (see maxJSONScratch)
	// left is what the conversion under way may still build (see
	// maxResultSize).
	left int
	// lossy is set by appendJSON when what it wrote does not read back as
	// the value fromLua gives (-0, strings that are not UTF-8).
	lossy    bool
	arrayMT  *lua.LTable
	objectMT *lua.LTable
	null     *lua.LUserData
	// frozen shows the tables behind read-only proxies (set when the
	// state is frozen).
	frozen *frozen
	// valueNull is Options.Null: JSON null in the values CallJSON builds,
	// and a null in the values handed to Lua.
	valueNull any
	// lazyMT is the metatable of placeholders, pending their Go values
	// (see lazy.go).
	lazyMT  *lua.LTable
	pending map[*lua.LTable]any
}

func newConverter(L *lua.LState) *converter {
	c := &converter{keys: map[string]lua.LValue{}, arrayMT: L.NewTable(), objectMT: L.NewTable(), null: L.NewUserData()}
	c.arrayMT.RawSetString("__name", lua.LString("companion.array"))
	c.objectMT.RawSetString("__name", lua.LString("companion.object"))
	nullMT := L.NewTable()
	nullMT.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LString("null"))
		return 1
	}))
	nullMT.RawSetString("__name", lua.LString("companion.null"))
	c.null.Metatable = nullMT
	c.lazyMT = L.CreateTable(0, 4)
	c.lazyMT.RawSetString("__index", L.NewFunction(c.lazyIndex))
	c.lazyMT.RawSetString("__newindex", L.NewFunction(c.lazyNewIndex))
	c.lazyMT.RawSetString("__len", L.NewFunction(c.lazyLen))
	return c
}

// toLua converts a Go JSON value to a Lua value (its deeper tables
// lazily, see lazy.go).
func (c *converter) toLua(L *lua.LState, v any) (lua.LValue, error) {
	return c.toLuaDepth(L, v, 0)
}

func (c *converter) toLuaDepth(L *lua.LState, v any, depth int) (lua.LValue, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("value nested deeper than %d levels", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		return c.null, nil
	case string:
		return luaString(v, x), nil // shares v's box (boxes.go)
	case bool:
		return lua.LBool(x), nil
	case float64:
		return luaNumber(x), nil
	case int64:
		return luaNumber(float64(x)), nil
	case int:
		return luaNumber(float64(x)), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, fmt.Errorf("number %s: %v", x, err)
		}
		return lua.LNumber(f), nil
	case map[string]any:
		if depth >= lazyDepth && c.lazyTables() && hasTables(x) && c.plainTree(x, depth) {
			return c.placeholder(x), nil
		}
		t := c.objectTable(L, len(x))
		for k, item := range x {
			lv, err := c.toLuaDepth(L, item, depth+1)
			if err != nil {
				return nil, err
			}
			c.setKey(t, k, lv)
		}
		t.Metatable = c.objectMT
		return t, nil
	case []any:
		if depth >= lazyDepth && len(x) > 0 && c.lazyTables() && c.plainTree(x, depth) {
			return c.placeholder(x), nil
		}
		items := c.values(len(x))
		for _, item := range x {
			lv, err := c.toLuaDepth(L, item, depth+1)
			if err != nil {
				return nil, err
			}
			items = append(items, lv)
		}
		t := c.arrayTable(L, items)
		t.Metatable = c.arrayMT
		return t, nil
	case []string:
		return c.stringList(L, x), nil
	default:
		if c.valueNull != nil && v == c.valueNull {
			return c.null, nil
		}
		// Any other Go value goes through its JSON form.
		plain, err := PlainJSON(x)
		if err != nil {
			return nil, err
		}
		return c.toLuaDepth(L, plain, depth)
	}
}

// PlainJSON converts any JSON-marshalable Go value to plain JSON values:
// map[string]any, []any, string, bool, nil, int64 for integers up to 2^53 and
// float64 for other numbers.
func PlainJSON(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return DecodeJSON(data)
}

// DecodeJSON decodes one JSON document into plain values (see PlainJSON).
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected data after the JSON value")
	}
	return normalizeNumbers(v), nil
}

func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		return numberValue(string(x))
	case map[string]any:
		for k, item := range x {
			x[k] = normalizeNumbers(item)
		}
		return x
	case []any:
		for i, item := range x {
			x[i] = normalizeNumbers(item)
		}
		return x
	default:
		return v
	}
}

// numberValue returns int64 for an integer literal that fits in ±2^53,
// float64 otherwise.
func numberValue(s string) any {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil && i <= maxExactInt && i >= -maxExactInt {
		return i
	}
	f, _ := strconv.ParseFloat(s, 64)
	return floatValue(f)
}

// NumberValue returns the plain form of a number: int64 when it has no
// fraction and lies within ±2^53, the float64 itself otherwise.
func NumberValue(f float64) any { return floatValue(f) }

// floatValue returns int64 for a float64 with no fraction within ±2^53.
func floatValue(f float64) any {
	if f == math.Trunc(f) && f <= maxExactInt && f >= -maxExactInt {
		if f == 0 && math.Signbit(f) {
			return float64(0) // keep -0 out of the integers; JSON writes it 0 anyway
		}
		return int64(f)
	}
	return f
}

// pathError is a conversion error inside a table; the path of keys leading
// to the bad value is built while unwinding, so that the common, successful
// conversion does not pay for it.
type pathError struct {
	path []string // innermost key first
	msg  string
}

func (e *pathError) Error() string {
	if len(e.path) == 0 {
		return e.msg
	}
	keys := make([]string, len(e.path))
	for i, k := range e.path {
		keys[len(keys)-1-i] = k
	}
	return strings.Join(keys, ".") + ": " + e.msg
}

func inside(err error, key string) error {
	if pe, ok := err.(*pathError); ok {
		pe.path = append(pe.path, key)
		return pe
	}
	return err
}

func convErr(format string, args ...any) error {
	return &pathError{msg: fmt.Sprintf(format, args...)}
}

// fromLua converts a Lua value to a Go JSON value.
func (c *converter) fromLua(v lua.LValue) (any, error) {
	c.left = maxResultSize
	return c.fromLuaDepth(v, 0)
}

// charge takes a value of n bytes from what the conversion may build; false
// when that is spent.
func (c *converter) charge(n int) bool {
	c.left -= n
	return c.left >= 0
}

// cost is what v counts against maxResultSize, its slots aside.
func cost(v lua.LValue) int {
	if s, ok := v.(lua.LString); ok {
		return valueCost + len(s)
	}
	return valueCost
}

func tooBig() error {
	return convErr("the value is larger than %d MiB as JSON (a table held in many places?)", maxResultSize>>20)
}

func (c *converter) fromLuaDepth(v lua.LValue, depth int) (any, error) {
	if depth > maxDepth {
		return nil, convErr("table nested deeper than %d levels (a table that contains itself?)", maxDepth)
	}
	if !c.charge(cost(v)) {
		return nil, tooBig()
	}
	switch x := v.(type) {
	case *lua.LNilType:
		return nil, nil
	case lua.LBool:
		return bool(x), nil
	case lua.LString:
		return string(x), nil
	case lua.LNumber:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, convErr("number %v cannot be written as JSON", f)
		}
		return floatValue(f), nil
	case *lua.LUserData:
		if x == c.null {
			return nil, nil
		}
		return nil, convErr("userdata cannot be written as JSON")
	case *lua.LTable:
		return c.tableFromLua(x, depth)
	default:
		return nil, convErr("a %s cannot be written as JSON", v.Type().String())
	}
}

func (c *converter) tableFromLua(t *lua.LTable, depth int) (any, error) {
	t = c.frozen.unwrap(t)
	shape, n, err := c.shape(t)
	if shape != shapeBad && !c.charge(n*valueCost) {
		return nil, tooBig()
	}
	switch shape {
	case shapeBad:
		return nil, err
	case shapeArray:
		return c.arrayFromLua(t, n, depth)
	}
	out := make(map[string]any, n)
	t.ForEach(func(k, item lua.LValue) {
		if err != nil {
			return
		}
		key := k.String()
		if n, ok := k.(lua.LNumber); ok {
			key = strconv.FormatInt(int64(n), 10)
		}
		var gv any
		gv, err = c.fromLuaDepth(item, depth+1)
		if err != nil {
			err = inside(err, key)
		}
		out[key] = gv
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// tableShape is how a table converts to JSON.
type tableShape int

const (
	shapeBad tableShape = iota
	shapeArray
	shapeObject
)

// shape classifies t (not a read-only proxy) as every conversion reads it,
// fromLua and the JSON writer alike: an array of n items, an object of n
// keys, or shapeBad with the reason, following the rules at the top of
// this file.
func (c *converter) shape(t *lua.LTable) (tableShape, int, error) {
	if t.Metatable == c.arrayMT {
		return shapeArray, t.Len(), nil
	}
	if shape, n, ok := c.quickShape(t); ok {
		return shape, n, nil
	}
	strKeys, intKeys, maxInt := 0, 0, 0
	var bad lua.LValue
	t.ForEach(func(k, _ lua.LValue) {
		switch key := k.(type) {
		case lua.LString:
			strKeys++
		case lua.LNumber:
			f := float64(key)
			if f >= 1 && f == math.Trunc(f) && f <= maxExactInt {
				intKeys++
				maxInt = max(maxInt, int(f))
			} else if bad == nil {
				bad = k
			}
		default:
			if bad == nil {
				bad = k
			}
		}
	})
	switch {
	case bad != nil:
		return shapeBad, 0, convErr("table key %s (a %s) cannot be a JSON object key", bad.String(), bad.Type().String())
	case strKeys > 0 && intKeys > 0:
		return shapeBad, 0, convErr("table mixes list items and named keys")
	case strKeys == 0 && intKeys == 0:
		if t.Metatable == c.objectMT {
			return shapeObject, 0, nil
		}
		return shapeArray, 0, nil
	case strKeys == 0 && intKeys == maxInt && t.Metatable != c.objectMT:
		return shapeArray, maxInt, nil
	}
	return shapeObject, strKeys + intKeys, nil
}

func (c *converter) arrayFromLua(t *lua.LTable, n int, depth int) (any, error) {
	out := make([]any, n)
	for i := 1; i <= n; i++ {
		gv, err := c.fromLuaDepth(t.RawGetInt(i), depth+1)
		if err != nil {
			return nil, inside(err, strconv.Itoa(i))
		}
		out[i-1] = gv
	}
	return out, nil
}

// stringList converts a list of strings to a marked Lua array.
func (c *converter) stringList(L *lua.LState, x []string) *lua.LTable {
	items := c.values(len(x))
	for _, s := range x {
		items = append(items, lua.LString(s))
	}
	t := c.arrayTable(L, items)
	t.Metatable = c.arrayMT
	return t
}
