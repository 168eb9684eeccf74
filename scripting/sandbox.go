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
		str.RawSetString("format", L.NewFunction(boundedFormat))
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

// boundedFormat is string.format refusing to build more than
// maxStringBuild bytes, and widths and precisions that would make Go's fmt
// allocate a huge string.
//
// gopher-lua hands the pattern and the values to Go's fmt, which builds
// the whole string in one Go call the deadline cannot interrupt; a
// directive may write far more than its value (%q writes a NUL byte as
// four, "% #x" a byte as five). So each value goes to fmt wrapped in a
// formatArg, which fmt asks to write itself knowing the verb, flags, width
// and precision it parsed: it first takes what it may write at most from
// the call's budget, and when the budget is spent writes nothing more and
// the call is refused. The result is otherwise gopher-lua's, byte for
// byte: the values write themselves as they did.
func boundedFormat(L *lua.LState) int {
	pattern := L.CheckString(1)
	for _, m := range formatWidth.FindAllStringSubmatch(pattern, -1) {
		for _, num := range m[1:] {
			if n, err := strconv.Atoi(num); err == nil && n > maxFormatWidth {
				L.RaiseError("string.format: width or precision %d is too large (the limit is %d)", n, maxFormatWidth)
			}
		}
	}
	budget := &formatBudget{L: L, left: maxStringBuild - len(pattern)}
	if budget.left < 0 {
		L.RaiseError("string.format would build a string of more than %d bytes (the limit is %d)", len(pattern), maxStringBuild)
	}
	// As gopher-lua does: no more values than the pattern has "%" that do
	// not start "%%" (fmt writes any it does not take after the text, as
	// "%!(EXTRA type=value)").
	directives := strings.Count(pattern, "%") - strings.Count(pattern, "%%")
	args := make([]any, min(max(L.GetTop()-1, 0), directives))
	for i := range args {
		args[i] = &formatArg{n: i + 2, budget: budget}
	}
	out := fmt.Sprintf(pattern, args...)
	if budget.over {
		L.RaiseError("string.format would build too long a string (the limit is %d bytes)", maxStringBuild)
	}
	L.Push(lua.LString(out))
	return 1
}

// formatBudget is what one string.format call may still write.
type formatBudget struct {
	L    *lua.LState // the values are its arguments
	left int
	over bool
}

// formatArg is one value of string.format as fmt sees it: the number of
// the argument, not the value, so that the verbs fmt answers without
// asking it (%T, %p, %w) write a type name, an address or this small
// struct, never the value unbounded.
type formatArg struct {
	n      int
	budget *formatBudget
}

// Format writes the value as gopher-lua's string.format did, once its
// largest possible size fits in the budget.
func (a *formatArg) Format(f fmt.State, verb rune) {
	if a.budget.over {
		return
	}
	precision, _ := f.Precision()
	var size int
	var write func()
	switch v := a.budget.L.Get(a.n).(type) {
	case lua.LString:
		size = formattedStringSize(len(v), verb, f)
		write = func() { v.Format(f, verb) }
	case lua.LNumber:
		// The longest number: %f of 1e308 with the greatest precision.
		size = 330 + precision
		write = func() { v.Format(f, verb) }
	case lua.LBool, *lua.LNilType:
		size = 64
		write = func() { fmt.Fprintf(f, directive(f, verb), v) }
	default:
		// Tables, functions and userdata write their name and address
		// (fmt would print a table's Go fields for %d: its whole content).
		text := lua.LString(v.String())
		size = formattedStringSize(len(text), verb, f)
		write = func() { text.Format(f, verb) }
	}
	if width, ok := f.Width(); ok {
		size = max(size, width)
	}
	if size > a.budget.left {
		a.budget.over = true
		return
	}
	a.budget.left -= size
	write()
}

// formattedStringSize is the most fmt writes for a string of n bytes with
// verb: %q and %#v escape a byte into at most four ("\x00"), %x writes two
// per byte, three with the space flag, five with "% #x" ("0x00 "); every
// other verb writes the string once, with at most a short "%!c(string=)"
// around it.
func formattedStringSize(n int, verb rune, f fmt.State) int {
	const overhead = 64
	perByte := 1
	switch {
	case verb == 'q', verb == 'v' && f.Flag('#'):
		perByte = 4
	case (verb == 'x' || verb == 'X') && f.Flag(' ') && f.Flag('#'):
		perByte = 5
	case (verb == 'x' || verb == 'X') && f.Flag(' '):
		perByte = 3
	case verb == 'x' || verb == 'X':
		perByte = 2
	}
	return perByte*n + overhead
}

// directive rebuilds the directive fmt parsed, for a value to format
// itself with it.
func directive(f fmt.State, verb rune) string {
	var b strings.Builder
	b.WriteByte('%')
	for _, flag := range "+-# 0" {
		if f.Flag(int(flag)) {
			b.WriteRune(flag)
		}
	}
	if w, ok := f.Width(); ok {
		b.WriteString(strconv.Itoa(w))
	}
	if p, ok := f.Precision(); ok {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(p))
	}
	b.WriteRune(verb)
	return b.String()
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
