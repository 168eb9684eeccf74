package scripting

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"
)

// Writing a Lua value as JSON directly, without building Go values first.
//
// The output is byte for byte what encoding/json (with SetEscapeHTML(false))
// writes for the value fromLua returns: object keys sorted, the same number
// and string forms. A value fromLua refuses is refused here too; the caller
// asks fromLua for the error so that its message (with the path of keys)
// is the one users know.

// appendJSON appends v as JSON to dst. ok is false when v cannot be written
// as JSON (fromLua says why). With build it also returns v as fromLua
// would (one pass for a page, which needs both).
func (c *converter) appendJSON(dst []byte, v lua.LValue, depth int, build bool) (_ []byte, value any, ok bool) {
	if depth > maxDepth || !c.charge(cost(v)) {
		return dst, nil, false
	}
	switch x := v.(type) {
	case *lua.LNilType:
		return append(dst, "null"...), c.valueNull, true
	case lua.LBool:
		if build {
			value = bool(x)
		}
		return strconv.AppendBool(dst, bool(x)), value, true
	case lua.LString:
		if build {
			value = goString(v, x) // shares v's box (boxes.go)
		}
		return c.appendString(dst, string(x)), value, true
	case lua.LNumber:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return dst, nil, false
		}
		if f == 0 && math.Signbit(f) {
			c.lossy = true // written 0, read back as the integer 0
		}
		plain := floatValue(f)
		if build {
			value = plain
		}
		if i, isInt := plain.(int64); isInt {
			return strconv.AppendInt(dst, i, 10), value, true
		}
		dst, ok = appendJSONFloat(dst, plain.(float64))
		return dst, value, ok
	case *lua.LUserData:
		if x == c.null {
			return append(dst, "null"...), c.valueNull, true
		}
		return dst, nil, false
	case *lua.LTable:
		return c.appendTable(dst, x, nil, depth, build)
	}
	return dst, nil, false
}

// jsonField is one key of an object being written.
type jsonField struct {
	key   string
	value lua.LValue
	extra any // a value of defaults (value is nil)
}

// appendTable writes t; defaults (for the top-level table only) are Go
// values added under keys t does not have. With build it also returns t as
// fromLua would, defaults included.
func (c *converter) appendTable(dst []byte, t *lua.LTable, defaults []Default, depth int, build bool) (_ []byte, value any, ok bool) {
	t = c.frozen.unwrap(t)
	shape, n, _ := c.shape(t) // fromLua says why a bad table is bad
	if shape != shapeBad && !c.charge(n*valueCost) {
		return dst, nil, false
	}
	switch shape {
	case shapeBad:
		return dst, nil, false
	case shapeArray:
		if defaults != nil && n > 0 {
			return dst, nil, false
		}
		if defaults == nil {
			var list []any
			if build {
				list = make([]any, n)
			}
			dst = append(dst, '[')
			for i := 1; i <= n; i++ {
				if i > 1 {
					dst = append(dst, ',')
				}
				var item any
				if dst, item, ok = c.appendJSON(dst, t.RawGetInt(i), depth+1, build); !ok {
					return dst, nil, false
				}
				if build {
					list[i-1] = item
				}
			}
			if build {
				value = list
			}
			return append(dst, ']'), value, true
		}
		// an empty table with defaults is an object of the defaults
	}
	// The fields are collected on a stack shared by the nested tables:
	// this table's stay at fields[start:] while the ones inside are
	// written (a nested table may move the stack; fields keeps ours).
	start := len(c.fields)
	defer func() { c.fields = c.fields[:start] }()
	if strdict, only := c.stringKeysOnly(t); only {
		for k, v := range strdict {
			c.fields = append(c.fields, jsonField{key: k, value: v})
		}
	} else {
		t.ForEach(func(k, v lua.LValue) {
			key, isStr := k.(lua.LString)
			if isStr {
				c.fields = append(c.fields, jsonField{key: string(key), value: v})
			} else {
				c.fields = append(c.fields, jsonField{key: strconv.FormatInt(int64(k.(lua.LNumber)), 10), value: v})
			}
		})
	}
	for _, d := range defaults {
		if t.RawGetString(d.Key) == lua.LNil {
			c.fields = append(c.fields, jsonField{key: d.Key, extra: d.Value})
		}
	}
	fields := c.fields[start:]
	order := sortedOrder(fields, new([maxSmallObject]uint8))
	var object map[string]any
	if build {
		object = make(map[string]any, len(fields))
	}
	dst = append(dst, '{')
	for i := range fields {
		f := &fields[i]
		if order != nil {
			f = &fields[order[i]]
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = c.appendString(dst, f.key)
		dst = append(dst, ':')
		var item any
		if f.value == nil {
			dst, ok = appendGoJSON(dst, f.extra)
			item = f.extra
			if item == nil {
				item = c.valueNull
			}
		} else {
			dst, item, ok = c.appendJSON(dst, f.value, depth+1, build)
		}
		if !ok {
			return dst, nil, false
		}
		if build {
			object[f.key] = item
		}
	}
	if build {
		value = object
	}
	return append(dst, '}'), value, true
}

// maxSmallObject is the most fields sortedOrder sorts by index.
const maxSmallObject = 32

// sortedOrder returns the positions of fields in key order, in buf, for
// the small objects views are made of: an insertion sort of byte indexes
// moves one byte where sorting the fields would move (and, while the
// collector marks, write-barrier) a 48-byte struct. Larger objects are
// sorted in place and nil is returned.
func sortedOrder(fields []jsonField, buf *[maxSmallObject]uint8) []uint8 {
	if len(fields) > maxSmallObject {
		slices.SortFunc(fields, func(a, b jsonField) int { return strings.Compare(a.key, b.key) })
		return nil
	}
	order := buf[:len(fields)]
	for i := range order {
		x := uint8(i)
		key := fields[i].key
		j := i
		for ; j > 0 && key < fields[order[j-1]].key; j-- {
			order[j] = order[j-1]
		}
		order[j] = x
	}
	return order
}

// appendGoJSON writes a plain Go value as writeValue in systems does
// (encoding/json without HTML escaping).
func appendGoJSON(dst []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return appendJSONString(dst, x), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case float64:
		return appendJSONFloat(dst, x)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, false
	}
	return append(dst, strings.TrimSuffix(b.String(), "\n")...), true
}

// appendJSONFloat is encoding/json's float64 encoder.
func appendJSONFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

// appendString writes s and notes when it is not valid UTF-8 (written with
// U+FFFD, so reading the JSON back does not give s).
func (c *converter) appendString(dst []byte, s string) []byte {
	n := len(dst)
	dst = appendJSONString(dst, s)
	if !c.lossy && len(dst)-n-2 != len(s) && !utf8.ValidString(s) {
		c.lossy = true
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// appendJSONString is encoding/json's string encoder without HTML
// escaping: control characters, quote and backslash escaped, invalid UTF-8
// replaced by U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
