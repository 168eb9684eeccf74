package scripting

import (
	"math"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Moving strings between Go and Lua values without boxing them again.
//
// A string in an interface value (any, or lua.LValue holding a
// lua.LString) is a pointer to a string header; the interface's other word
// says the type. Converting one interface to the other in Go copies the
// string into a new box: one allocation per string of every entity handed
// to a view and of every view a page reads. The header is never written
// (Go strings are immutable), so both interfaces can point at the same
// one: only the type word differs. The type words are taken from real
// conversions, and boxesWork checks the result when the package starts;
// if it does not hold, the plain conversions are used.

// ifaceWords is the layout of an interface value.
type ifaceWords struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

var (
	lstringTab = func() unsafe.Pointer {
		v := lua.LValue(lua.LString("x"))
		return (*ifaceWords)(unsafe.Pointer(&v)).typ
	}()
	stringType = func() unsafe.Pointer {
		v := any("x")
		return (*ifaceWords)(unsafe.Pointer(&v)).typ
	}()
	fastBoxes = boxesWork()
)

// luaString returns the string s (the dynamic value of v, which must be a
// string) as a lua.LString value sharing v's box.
func luaString(v any, s string) lua.LValue {
	if !fastBoxes {
		return lua.LString(s)
	}
	return luaStringUnchecked(v)
}

// goString returns s (the dynamic value of v, which must be a lua.LString)
// as a Go string in an any sharing v's box.
func goString(v lua.LValue, s lua.LString) any {
	if !fastBoxes {
		return string(s)
	}
	return goStringUnchecked(v)
}

func boxesWork() bool {
	if unsafe.Sizeof(lua.LValue(nil)) != unsafe.Sizeof(ifaceWords{}) || unsafe.Sizeof(any(nil)) != unsafe.Sizeof(ifaceWords{}) {
		return false
	}
	src := any("héllo, box")
	lv := luaStringUnchecked(src)
	ls, ok := lv.(lua.LString)
	if !ok || string(ls) != "héllo, box" || lv.Type() != lua.LTString || lv.String() != "héllo, box" {
		return false
	}
	back := goStringUnchecked(lv)
	s, ok := back.(string)
	return ok && s == "héllo, box"
}

func luaStringUnchecked(v any) lua.LValue {
	var out lua.LValue
	w := (*ifaceWords)(unsafe.Pointer(&out))
	w.typ = lstringTab
	w.data = (*ifaceWords)(unsafe.Pointer(&v)).data
	return out
}

func goStringUnchecked(v lua.LValue) any {
	var out any
	w := (*ifaceWords)(unsafe.Pointer(&out))
	w.typ = stringType
	w.data = (*ifaceWords)(unsafe.Pointer(&v)).data
	return out
}

// smallNumbers are the integers 0..len-1 boxed once: stats, levels and
// counts are small integers, and boxing a float64 into a lua.LValue
// allocates.
var smallNumbers = func() (boxes [1024]lua.LValue) {
	for i := range boxes {
		boxes[i] = lua.LNumber(float64(i))
	}
	return boxes
}()

// luaNumber returns f as a lua.LValue, without an allocation for small
// integers.
func luaNumber(f float64) lua.LValue {
	if f >= 0 && f < float64(len(smallNumbers)) {
		if i := int(f); float64(i) == f && !(f == 0 && math.Signbit(f)) {
			return smallNumbers[i]
		}
	}
	return lua.LNumber(f)
}
