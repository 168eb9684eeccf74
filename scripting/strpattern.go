package scripting

// string.find, string.match, string.gmatch and string.gsub of the sandbox.
// They are gopher-lua's own functions (stringlib.go of v1.1.2, with the same
// results, quirks included: match returns nothing rather than nil when
// nothing matches) moved onto scripting/internal/luapattern, the copy of
// gopher-lua's matcher that checks the call's deadline while it
// backtracks, and with bounds on what one call may build.
//
// NOTICE: adapted from gopher-lua, Copyright (c) 2015 Yusuke Inuzuka,
// MIT License (the full notice is in internal/luapattern/pattern.go).

import (
	"fmt"
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/vttapp/companion/scripting/internal/luapattern"
)

// Bounds of pattern matching. The subject bound is far above any text a
// view formats and keeps the matcher's work per start position sensible;
// the deadline stops the rest.
const (
	maxPatternLen = 8 << 10
	maxSubjectLen = 16 << 20
)

// installPatterns replaces the four pattern functions of the string table.
func installPatterns(L *lua.LState, str *lua.LTable) {
	str.RawSetString("find", L.NewFunction(strFind))
	str.RawSetString("match", L.NewFunction(strMatch))
	str.RawSetString("gsub", L.NewFunction(strGsub))
	str.RawSetString("gmatch", L.NewClosure(strGmatch, L.NewFunction(strGmatchIter)))
}

// findMatches runs the matcher for the library function name, under the
// call's deadline; a pattern error or the deadline is raised as a Lua error
// located at the caller.
func findMatches(L *lua.LState, name, pattern, subject string, offset, limit int) []*luapattern.MatchData {
	if len(pattern) > maxPatternLen {
		L.RaiseError("%s: the pattern is %d bytes long (the limit is %d)", name, len(pattern), maxPatternLen)
	}
	if len(subject) > maxSubjectLen {
		L.RaiseError("%s: the string is %d bytes long (the limit for pattern matching is %d)", name, len(subject), maxSubjectLen)
	}
	var check func() error
	if ctx := L.Context(); ctx != nil {
		done := ctx.Done()
		check = func() error {
			select {
			case <-done:
				return ctx.Err()
			default:
				return nil
			}
		}
	}
	mds, err := luapattern.Find(pattern, readOnlyBytes(subject), offset, limit, check)
	if err != nil {
		if cause := luapattern.Cause(err); cause != nil {
			// scriptError recognises the context's error and says which
			// limit was hit; the prefix says where.
			L.RaiseError("%s: %s", name, cause.Error())
		}
		L.RaiseError("%s", err.Error())
	}
	return mds
}

// readOnlyBytes views s as bytes without a copy; the matcher only reads.
func readOnlyBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

func strFind(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	if len(pattern) == 0 {
		L.Push(lua.LNumber(1))
		L.Push(lua.LNumber(0))
		return 2
	}
	init := luaIndex2StringIndex(str, L.OptInt(3, 1), true)
	plain := false
	if L.GetTop() == 4 {
		plain = lua.LVAsBool(L.Get(4))
	}
	if plain {
		if init > len(str) { // gopher-lua would panic slicing past the end
			L.Push(lua.LNil)
			return 1
		}
		pos := strings.Index(str[init:], pattern)
		if pos < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(luaNumber(float64(init + pos + 1)))
		L.Push(luaNumber(float64(init + pos + len(pattern))))
		return 2
	}
	mds := findMatches(L, "string.find", pattern, str, init, 1)
	if len(mds) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	md := mds[0]
	L.Push(luaNumber(float64(md.Capture(0) + 1)))
	L.Push(luaNumber(float64(md.Capture(1))))
	for i := 2; i < md.CaptureLength(); i += 2 {
		if md.IsPosCapture(i) {
			L.Push(lua.LNumber(md.Capture(i)))
		} else {
			L.Push(lua.LString(str[md.Capture(i):md.Capture(i+1)]))
		}
	}
	return md.CaptureLength()/2 + 1
}

func strMatch(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	offset := L.OptInt(3, 1)
	l := len(str)
	if offset < 0 {
		offset = l + offset + 1
	}
	offset--
	if offset < 0 {
		offset = 0
	}
	mds := findMatches(L, "string.match", pattern, str, offset, 1)
	if len(mds) == 0 {
		L.Push(lua.LNil)
		return 0
	}
	md := mds[0]
	nsubs := md.CaptureLength() / 2
	if nsubs == 1 {
		L.Push(lua.LString(str[md.Capture(0):md.Capture(1)]))
		return 1
	}
	for i := 2; i < md.CaptureLength(); i += 2 {
		if md.IsPosCapture(i) {
			L.Push(lua.LNumber(md.Capture(i)))
		} else {
			L.Push(lua.LString(str[md.Capture(i):md.Capture(i+1)]))
		}
	}
	return nsubs - 1
}

type gmatchState struct {
	str     string
	pos     int
	matches []*luapattern.MatchData
}

func strGmatchIter(L *lua.LState) int {
	md := L.CheckUserData(1).Value.(*gmatchState)
	str := md.str
	idx := md.pos
	md.pos++
	if idx == len(md.matches) {
		return 0
	}
	L.Push(L.Get(1))
	match := md.matches[idx]
	if match.CaptureLength() == 2 {
		L.Push(lua.LString(str[match.Capture(0):match.Capture(1)]))
		return 1
	}
	for i := 2; i < match.CaptureLength(); i += 2 {
		if match.IsPosCapture(i) {
			L.Push(lua.LNumber(match.Capture(i)))
		} else {
			L.Push(lua.LString(str[match.Capture(i):match.Capture(i+1)]))
		}
	}
	return match.CaptureLength()/2 - 1
}

// strGmatch finds every match when called, as gopher-lua's does.
func strGmatch(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	mds := findMatches(L, "string.gmatch", pattern, str, 0, -1)
	L.Push(L.Get(lua.UpvalueIndex(1)))
	ud := L.NewUserData()
	ud.Value = &gmatchState{str: str, matches: mds}
	L.Push(ud)
	return 2
}

func strGsub(L *lua.LState) int {
	str := L.CheckString(1)
	pat := L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTTable, lua.LTFunction)
	repl := L.CheckAny(3)
	limit := L.OptInt(4, -1)
	mds := findMatches(L, "string.gsub", pat, str, 0, limit)
	if len(mds) == 0 {
		L.SetTop(1)
		L.Push(lua.LNumber(0))
		return 2
	}
	out := gsubBuilder{str: str, L: L}
	switch lv := repl.(type) {
	case lua.LString:
		gsubString(L, &out, string(lv), mds)
	case *lua.LTable:
		gsubTable(L, &out, lv, mds)
	case *lua.LFunction:
		gsubFunc(L, &out, lv, mds)
	}
	L.Push(lua.LString(out.finish()))
	L.Push(lua.LNumber(len(mds)))
	return 2
}

// gsubBuilder writes the result of gsub in one pass (gopher-lua copies the
// whole string once per match, quadratic in the number of matches; the
// result is the same) and refuses to build more than maxStringBuild bytes.
type gsubBuilder struct {
	L    *lua.LState
	str  string
	buf  []byte
	last int // end of the subject copied so far
}

func (b *gsubBuilder) replace(start, end int, with string) {
	b.grow(start - b.last + len(with))
	b.buf = append(b.buf, b.str[b.last:start]...)
	b.buf = append(b.buf, with...)
	b.last = end
}

// grow refuses a result that grows past maxStringBuild and past the
// subject's own size (replacing in a long text without making it longer
// stays allowed).
func (b *gsubBuilder) grow(n int) {
	if size := len(b.buf) + n; size > maxStringBuild && size > len(b.str) {
		b.L.RaiseError("string.gsub would build a string of at least %d bytes (the limit is %d)", size, maxStringBuild)
	}
}

func (b *gsubBuilder) finish() string {
	if b.last == 0 && b.buf == nil {
		return b.str
	}
	b.buf = append(b.buf, b.str[b.last:]...)
	return string(b.buf)
}

func gsubString(L *lua.LState, out *gsubBuilder, repl string, matches []*luapattern.MatchData) {
	for _, match := range matches {
		start, end := match.Capture(0), match.Capture(1)
		sc := newFlagScanner('%', "", "", repl)
		for c, eos := sc.Next(); !eos; c, eos = sc.Next() {
			if !sc.ChangeFlag {
				if sc.HasFlag {
					if c >= '0' && c <= '9' {
						sc.AppendString(capturedString(L, match, out.str, 2*(int(c)-48)))
					} else {
						sc.AppendChar('%')
						sc.AppendChar(c)
					}
					sc.HasFlag = false
				} else {
					sc.AppendChar(c)
				}
			}
			if len(sc.buf) > maxStringBuild {
				out.grow(len(sc.buf))
			}
		}
		out.replace(start, end, string(sc.buf))
	}
}

func gsubTable(L *lua.LState, out *gsubBuilder, repl *lua.LTable, matches []*luapattern.MatchData) {
	for _, match := range matches {
		idx := 0
		if match.CaptureLength() > 2 { // has captures
			idx = 2
		}
		var value lua.LValue
		if match.IsPosCapture(idx) {
			value = L.GetTable(repl, lua.LNumber(match.Capture(idx)))
		} else {
			value = L.GetField(repl, out.str[match.Capture(idx):match.Capture(idx+1)])
		}
		if !lua.LVIsFalse(value) {
			out.replace(match.Capture(0), match.Capture(1), lua.LVAsString(value))
		}
	}
}

func gsubFunc(L *lua.LState, out *gsubBuilder, repl *lua.LFunction, matches []*luapattern.MatchData) {
	str := out.str
	for _, match := range matches {
		start, end := match.Capture(0), match.Capture(1)
		L.Push(repl)
		nargs := 0
		if match.CaptureLength() > 2 { // has captures
			for i := 2; i < match.CaptureLength(); i += 2 {
				if match.IsPosCapture(i) {
					L.Push(lua.LNumber(match.Capture(i)))
				} else {
					L.Push(lua.LString(capturedString(L, match, str, i)))
				}
				nargs++
			}
		} else {
			L.Push(lua.LString(capturedString(L, match, str, 0)))
			nargs++
		}
		L.Call(nargs, 1)
		ret := L.Get(-1)
		L.Pop(1)
		if !lua.LVIsFalse(ret) {
			out.replace(start, end, lua.LVAsString(ret))
		}
	}
}

func checkCaptureIndex(L *lua.LState, m *luapattern.MatchData, idx int) {
	if idx <= 2 {
		return
	}
	if idx >= m.CaptureLength() {
		L.RaiseError("invalid capture index")
	}
}

func capturedString(L *lua.LState, m *luapattern.MatchData, str string, idx int) string {
	checkCaptureIndex(L, m, idx)
	if idx >= m.CaptureLength() && idx == 2 {
		idx = 0
	}
	if m.IsPosCapture(idx) {
		return fmt.Sprint(m.Capture(idx))
	}
	return str[m.Capture(idx):m.Capture(idx+1)]
}

func luaIndex2StringIndex(str string, i int, start bool) int {
	if start && i != 0 {
		i--
	}
	l := len(str)
	if i < 0 {
		i = l + i + 1
	}
	i = max(0, i)
	if !start && i > l {
		i = l
	}
	return i
}

// flagScanner reads a gsub replacement string ("%1", "%%").
type flagScanner struct {
	flag       byte
	start      string
	end        string
	buf        []byte
	str        string
	Length     int
	Pos        int
	HasFlag    bool
	ChangeFlag bool
}

func newFlagScanner(flag byte, start, end, str string) *flagScanner {
	return &flagScanner{flag, start, end, make([]byte, 0, len(str)), str, len(str), 0, false, false}
}

func (fs *flagScanner) AppendString(str string) { fs.buf = append(fs.buf, str...) }

func (fs *flagScanner) AppendChar(ch byte) { fs.buf = append(fs.buf, ch) }

func (fs *flagScanner) Next() (byte, bool) {
	c := byte('\000')
	fs.ChangeFlag = false
	if fs.Pos == fs.Length {
		if fs.HasFlag {
			fs.AppendString(fs.end)
		}
		return c, true
	}
	c = fs.str[fs.Pos]
	if c == fs.flag {
		if fs.Pos < (fs.Length-1) && fs.str[fs.Pos+1] == fs.flag {
			fs.HasFlag = false
			fs.AppendChar(fs.flag)
			fs.Pos += 2
			return fs.Next()
		} else if fs.Pos != fs.Length-1 {
			if fs.HasFlag {
				fs.AppendString(fs.end)
			}
			fs.AppendString(fs.start)
			fs.ChangeFlag = true
			fs.HasFlag = true
		}
	}
	fs.Pos++
	return c, false
}
