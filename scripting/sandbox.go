package scripting

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Limits of one Lua state. Runaway recursion hits the call-stack limit and
// becomes a "stack overflow" error; the registry (the value stack) may grow
// to registryMax slots before it errors.
const (
	callStackSize = 200
	registrySize  = 1024 * 4
	registryMax   = 1024 * 256
	// maxStringBuild bounds strings built in one call of string.rep or a
	// width in string.format: a single Go call cannot be interrupted by the
	// deadline, so it must not allocate without bound.
	maxStringBuild = 4 << 20
	maxFormatWidth = 1000
)

// removedGlobals are base functions the sandbox takes away: file access,
// loading code from text or bytecode, the package system (replaced by our
// own require), and gopher-lua's debugging helper.
var removedGlobals = []string{"dofile", "loadfile", "load", "loadstring", "module", "require", "_printregs", "collectgarbage", "getfenv", "setfenv", "newproxy"}

// newSandbox returns a state with only base, table, string and math.
func newSandbox() *lua.LState {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       callStackSize,
		RegistrySize:        registrySize,
		RegistryMaxSize:     registryMax,
		RegistryGrowStep:    registryGrowStep,
		IncludeGoStackTrace: false,
	})
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
	} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	for _, name := range removedGlobals {
		L.SetGlobal(name, lua.LNil)
	}
	// type() as gopher-lua writes it boxes a new string for every call;
	// views call it for nearly every value they read.
	L.SetGlobal("type", L.NewFunction(luaType))
	if str, ok := L.GetGlobal("string").(*lua.LTable); ok {
		str.RawSetString("rep", L.NewFunction(boundedRep))
		installPatterns(L, str)
		str.RawSetString("dump", lua.LNil)
		if format, ok := str.RawGetString("format").(*lua.LFunction); ok {
			str.RawSetString("format", L.NewFunction(boundedFormat(format)))
		}
	}
	return L
}

// typeNames are the results of type(), boxed once.
var typeNames = func() [lua.LTChannel + 1]lua.LValue {
	var names [lua.LTChannel + 1]lua.LValue
	for t := lua.LTNil; t <= lua.LTChannel; t++ {
		names[t] = lua.LString(t.String())
	}
	return names
}()

// luaType is the base library's type(), without an allocation per call.
func luaType(L *lua.LState) int {
	t := L.CheckAny(1).Type()
	if int(t) < len(typeNames) {
		L.Push(typeNames[t])
	} else {
		L.Push(lua.LString(t.String()))
	}
	return 1
}

// boundedRep is string.rep with a limit on the result's size.
func boundedRep(L *lua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	sep := L.OptString(3, "")
	if n <= 0 {
		L.Push(lua.LString(""))
		return 1
	}
	if size := int64(len(s))*int64(n) + int64(len(sep))*int64(n-1); size > maxStringBuild {
		L.RaiseError("string.rep would build %d bytes (the limit is %d)", size, maxStringBuild)
	}
	// strings.Repeat copies by doubling: a few memmoves rather than one
	// write per repetition, which matters for ("x"):rep(4194304).
	unit := s + sep
	out := strings.Repeat(unit, n)
	L.Push(lua.LString(out[:len(out)-len(sep)]))
	return 1
}

var formatWidth = regexp.MustCompile(`%[-+ #0]*(\d*)(?:\.(\d*))?`)

// boundedFormat refuses field widths and precisions that would make Go's
// fmt allocate a huge string.
func boundedFormat(format *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		pattern := L.CheckString(1)
		for _, m := range formatWidth.FindAllStringSubmatch(pattern, -1) {
			for _, num := range m[1:] {
				if n, err := strconv.Atoi(num); err == nil && n > maxFormatWidth {
					L.RaiseError("string.format: width or precision %d is too large (the limit is %d)", n, maxFormatWidth)
				}
			}
		}
		top := L.GetTop()
		// gopher-lua hands the pattern to Go's fmt, so each directive
		// writes at most one argument plus a bounded width; "%[1]s" can
		// repeat an argument, so then any directive may be the longest.
		directives := max(strings.Count(pattern, "%")-2*strings.Count(pattern, "%%"), 0)
		longest, total := 0, 0
		for i := 2; i <= top; i++ {
			if s, ok := L.Get(i).(lua.LString); ok {
				longest = max(longest, len(s))
				total += len(s)
			}
		}
		size := len(pattern) + total + directives*maxFormatWidth
		if strings.Contains(pattern, "[") {
			size = len(pattern) + directives*(longest+maxFormatWidth)
		}
		if size > maxStringBuild {
			L.RaiseError("string.format would build a string of up to %d bytes (the limit is %d)", size, maxStringBuild)
		}
		L.Push(format)
		for i := 1; i <= top; i++ {
			L.Push(L.Get(i))
		}
		L.Call(top, 1)
		return 1
	}
}

// callerPos returns the file and line of the Lua code calling the current
// Go function.
func callerPos(L *lua.LState) (string, int) {
	return parseWhere(L.Where(1))
}

func parseWhere(where string) (string, int) {
	where = strings.TrimSuffix(where, ":")
	i := strings.LastIndexByte(where, ':')
	if i < 0 {
		return where, 0
	}
	line, err := strconv.Atoi(where[i+1:])
	if err != nil {
		return where, 0
	}
	return where[:i], line
}

// funcPos is where a Lua function is defined.
func funcPos(fn *lua.LFunction) (string, int) {
	if fn == nil || fn.Proto == nil {
		return "", 0
	}
	return fn.Proto.SourceName, fn.Proto.LineDefined
}

var moduleName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// modulePath maps a module name to a file of the system folder:
// "lib.format" -> "lib/format.lua". Names with "..", slashes or anything
// but identifiers are refused, so require cannot leave the folder.
func modulePath(name string) (string, error) {
	if !moduleName.MatchString(name) {
		return "", fmt.Errorf("module name %q is not valid: use dotted identifiers such as \"lib.format\" (files inside the system folder only)", name)
	}
	return strings.ReplaceAll(name, ".", "/") + ".lua", nil
}
