package scripting

import (
	"strings"
	"unicode"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"
)

// Bounds of the library functions that loop or allocate in Go.
//
// The deadline and the memory watchdog are checked by the Lua VM between
// two instructions; a Go function runs to its end before either can look.
// unpack({}, 1, 1e9) pushed values one by one until the value stack
// overflowed, and gopher-lua grows that stack by a few slots per resize,
// so the call copied gigabytes and ran for seconds past a 250 ms limit.
// Each such function therefore gets a count limit, far above what a view
// needs, that makes one call cheap; it is refused with a located error.
const (
	// maxBuiltinValues is the most values one call of unpack, select,
	// string.byte or string.char may take or return (Lua 5.1 itself
	// refuses more than 8000 in unpack: "too many results to unpack").
	maxBuiltinValues = 1 << 16
	// maxBuiltinMoves is the most array slots one table.insert or
	// table.remove may shift, and the longest array table.sort sorts: a
	// view's lists hold hundreds of items.
	maxBuiltinMoves = 1 << 18
	// registryGrowStep is how far the value stack grows at once: a small
	// step makes filling it quadratic.
	registryGrowStep = registrySize
	// maxErrorText bounds the __tostring of an error object.
	maxErrorText = 200
	// maxPrintBytes bounds one print() line in the host's log.
	maxPrintBytes = 16 << 10
)

// installBoundedBuiltins replaces the base, string and table functions
// that loop in Go by bounded versions; the guards (guards.go) wrap them
// afterwards like the originals.
func installBoundedBuiltins(L *lua.LState, onError func(L *lua.LState, obj lua.LValue, level int)) {
	base := L.G.Global
	base.RawSetString("unpack", L.NewFunction(boundedUnpack))
	base.RawSetString("select", L.NewFunction(boundedSelect))
	if orig, ok := base.RawGetString("error").(*lua.LFunction); ok && orig.IsG {
		base.RawSetString("error", L.NewFunction(func(L *lua.LState) int {
			obj := L.CheckAny(1)
			onError(L, obj, L.OptInt(2, 1))
			return orig.GFunction(L)
		}))
	}
	if str, ok := base.RawGetString("string").(*lua.LTable); ok {
		str.RawSetString("byte", L.NewFunction(boundedByte))
		str.RawSetString("char", L.NewFunction(boundedChar))
		str.RawSetString("upper", L.NewFunction(boundedCase("string.upper", strings.ToUpper, unicode.ToUpper)))
		str.RawSetString("lower", L.NewFunction(boundedCase("string.lower", strings.ToLower, unicode.ToLower)))
	}
	if tbl, ok := base.RawGetString("table").(*lua.LTable); ok {
		for name, check := range map[string]func(*lua.LState) int{
			"insert": shiftMoves(3),
			"remove": shiftMoves(2),
			"sort":   sortMoves,
		} {
			if orig, ok := tbl.RawGetString(name).(*lua.LFunction); ok && orig.IsG {
				tbl.RawSetString(name, L.NewFunction(boundedMoves("table."+name, check, orig.GFunction)))
			}
		}
	}
}

// tooMany raises the count error of a library function.
func tooMany(L *lua.LState, name string, n int64, what string, limit int) {
	L.RaiseError("%s: %d %s is too many for one call (the limit is %d)", name, n, what, limit)
}

// boundedUnpack is unpack with at most maxBuiltinValues results.
func boundedUnpack(L *lua.LState) int {
	tb := L.CheckTable(1)
	start := L.OptInt(2, 1)
	end := L.OptInt(3, tb.Len())
	// The difference is taken unsigned: end - start overflows int for
	// unpack(t, -9e18, 9e18).
	if end >= start && uint64(end)-uint64(start) >= maxBuiltinValues {
		n := uint64(end) - uint64(start) + 1
		L.RaiseError("unpack: %d results is too many for one call (the limit is %d)", n, maxBuiltinValues)
	}
	if end < start {
		return 0
	}
	// Counted, not "i <= end": at the top of the int range i++ wraps.
	n := int(uint64(end) - uint64(start) + 1)
	for k := range n {
		L.Push(tb.RawGetInt(start + k))
	}
	return n
}

// boundedSelect is select refusing to pass on more than maxBuiltinValues
// values (they can only arrive through unpack or string.byte, already
// bounded; this keeps the bound where the issue was seen).
func boundedSelect(L *lua.LState) int {
	L.CheckTypes(1, lua.LTNumber, lua.LTString)
	num := L.GetTop()
	switch lv := L.Get(1).(type) {
	case lua.LNumber:
		idx := int(lv)
		if idx < 0 {
			idx = num + idx
		} else if idx > num {
			idx = num
		}
		if idx < 1 {
			L.ArgError(1, "index out of range")
		}
		if num-idx > maxBuiltinValues {
			tooMany(L, "select", int64(num-idx), "values", maxBuiltinValues)
		}
		return num - idx
	case lua.LString:
		if string(lv) != "#" {
			L.ArgError(1, "invalid string '"+string(lv)+"'")
		}
		L.Push(lua.LNumber(num - 1))
		return 1
	}
	return 0
}

// boundedByte is string.byte with at most maxBuiltinValues results.
func boundedByte(L *lua.LState) int {
	str := L.CheckString(1)
	l := len(str)
	start := L.OptInt(2, 1) - 1
	end := L.OptInt(3, -1)
	if start < 0 {
		start = l + start + 1
	}
	if end < 0 {
		end = l + end + 1
	}
	if L.GetTop() == 2 {
		if start < 0 || start >= l {
			return 0
		}
		L.Push(lua.LNumber(str[start]))
		return 1
	}
	start, end = max(start, 0), min(end, l)
	if end <= start || start >= l {
		return 0
	}
	if end-start > maxBuiltinValues {
		tooMany(L, "string.byte", int64(end-start), "results", maxBuiltinValues)
	}
	for i := start; i < end; i++ {
		L.Push(lua.LNumber(str[i]))
	}
	return end - start
}

// boundedChar is string.char with at most maxBuiltinValues arguments.
func boundedChar(L *lua.LState) int {
	top := L.GetTop()
	if top > maxBuiltinValues {
		tooMany(L, "string.char", int64(top), "arguments", maxBuiltinValues)
	}
	b := make([]byte, top)
	for i := 1; i <= top; i++ {
		b[i-1] = uint8(L.CheckInt(i))
	}
	L.Push(lua.LString(string(b)))
	return 1
}

// boundedCase is string.upper or string.lower (convert, as gopher-lua's,
// maps every rune) refusing to build more than maxStringBuild bytes. The
// result may be longer than the string: a byte that is not UTF-8 becomes
// U+FFFD (three bytes), and some letters change to longer ones (U+023F's
// capital takes three bytes). So a string that could grow past the limit
// is measured first, rune by rune, without building anything.
func boundedCase(name string, convert func(string) string, mapRune func(rune) rune) lua.LGFunction {
	return func(L *lua.LState) int {
		s := L.CheckString(1)
		if 3*len(s) > maxStringBuild {
			size := 0
			for i := 0; i < len(s); {
				r, n := utf8.DecodeRuneInString(s[i:])
				i += n
				if r == utf8.RuneError && n == 1 {
					size += utf8.RuneLen(utf8.RuneError)
				} else {
					size += utf8.RuneLen(mapRune(r))
				}
			}
			if size > maxStringBuild {
				L.RaiseError("%s would build a string of %d bytes (the limit is %d)", name, size, maxStringBuild)
			}
		}
		L.Push(lua.LString(convert(s)))
		return 1
	}
}

// boundedMoves refuses a table.insert, remove or sort that would move or
// compare more than maxBuiltinMoves slots in one Go call.
func boundedMoves(name string, moves func(*lua.LState) int, orig lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if _, ok := L.Get(1).(*lua.LTable); ok {
			if n := moves(L); n > maxBuiltinMoves {
				tooMany(L, name, int64(n), "array slots", maxBuiltinMoves)
			}
		}
		return orig(L)
	}
}

// shiftMoves is how many slots table.insert(t, pos, v) or
// table.remove(t, pos) shifts: those after pos (posArg is 3 for insert, 2
// for remove; without it they work at the end and shift none).
func shiftMoves(posArg int) func(*lua.LState) int {
	return func(L *lua.LState) int {
		if L.GetTop() < posArg {
			return 0
		}
		pos, ok := L.Get(2).(lua.LNumber)
		if !ok {
			return 0
		}
		return max(L.Get(1).(*lua.LTable).Len()-int(pos), 0)
	}
}

// sortMoves is the length of the array table.sort sorts.
func sortMoves(L *lua.LState) int {
	return L.Get(1).(*lua.LTable).Len()
}

// raisedError remembers where a non-string error object was raised, and
// how to name it: gopher-lua reports such an error as "table: 0x…", with
// no place and a heap address.
type raisedError struct {
	obj  lua.LValue
	text string // "file:line: error object is a table" or its __tostring
}

// noteRaised runs inside error(), under the call's deadline, so that a
// __tostring metamethod is bounded like any other Lua code.
func (st *state) noteRaised(L *lua.LState, obj lua.LValue, level int) {
	switch obj.(type) {
	case lua.LString, lua.LNumber:
		return
	}
	text := "error object is a " + obj.Type().String()
	if L.GetMetaField(obj, "__tostring") != lua.LNil {
		if s, ok := L.ToStringMeta(obj).(lua.LString); ok {
			text = string(s)
			if len(text) > maxErrorText {
				text = strings.ToValidUTF8(text[:maxErrorText], "") + "…"
			}
		}
	}
	if level > 0 {
		text = L.Where(level) + text
	}
	st.raised = raisedError{obj: obj, text: text}
}

// describeRaised turns a failure whose error object is not a string into
// one that says where it was raised, never a heap address.
func (st *state) describeRaised(err error) error {
	apiErr, ok := err.(*lua.ApiError)
	if !ok || apiErr.Object == nil {
		return err
	}
	switch apiErr.Object.(type) {
	case lua.LString, lua.LNumber:
		return err
	}
	text := "error object is a " + apiErr.Object.Type().String()
	if st.raised.obj == apiErr.Object {
		text = st.raised.text
	}
	st.raised = raisedError{}
	return &lua.ApiError{Type: apiErr.Type, Object: lua.LString(text), StackTrace: apiErr.StackTrace, Cause: apiErr.Cause}
}
