package scripting

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// Program is the compiled Lua of one system version: every .lua file of the
// folder compiled once. The prototypes are read-only after compilation and
// shared by every state of the pool.
type Program struct {
	entry  string
	protos map[string]*lua.FunctionProto // by slash path, e.g. "lib/format.lua"
}

// skippedDirs hold no code: content, fixtures and static files.
var skippedDirs = map[string]bool{"assets": true, "sample": true, "tests": true, "templates": true, "theme": true}

// Compile compiles every .lua file of fsys (outside assets/, sample/,
// tests/, templates/, theme/ and hidden folders). It reports every syntax
// error at once, as "file:line: message" problems.
func Compile(fsys fs.FS, entry string) (*Program, error) {
	p := &Program{entry: entry, protos: map[string]*lua.FunctionProto{}}
	var problems Problems
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			problems.Add(name, 0, "cannot read: %v", err)
			return nil
		}
		base := path.Base(name)
		if d.IsDir() {
			if name != "." && (strings.HasPrefix(base, ".") || (!strings.Contains(name, "/") && skippedDirs[name])) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".lua") || strings.HasPrefix(base, ".") {
			return nil
		}
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			problems.Add(name, 0, "cannot read: %v", err)
			return nil
		}
		proto, prob := compileChunk(src, name)
		if prob != nil {
			problems = append(problems, *prob)
			return nil
		}
		p.protos[name] = proto
		return nil
	})
	if err != nil {
		problems.Add("", 0, "cannot list the system folder: %v", err)
	}
	if _, ok := p.protos[entry]; !ok && !hasProblemIn(problems, entry) {
		problems.Add(entry, 0, "entry script not found")
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].File < problems[j].File })
	if err := problems.Err(); err != nil {
		return nil, err
	}
	return p, nil
}

func hasProblemIn(ps Problems, file string) bool {
	for _, p := range ps {
		if p.File == file {
			return true
		}
	}
	return false
}

// compileChunk parses and compiles one file; the chunk name is the file's
// path so that Lua error positions read "lib/format.lua:12: ...".
func compileChunk(src []byte, name string) (*lua.FunctionProto, *Problem) {
	chunk, err := parse.Parse(bytes.NewReader(src), name)
	if err != nil {
		var perr *parse.Error
		if errors.As(err, &perr) {
			msg := strings.TrimSpace(perr.Message)
			if perr.Token != "" && perr.Pos.Line != parse.EOF {
				msg = fmt.Sprintf("%s near '%s'", msg, perr.Token)
			}
			line := perr.Pos.Line
			if line == parse.EOF {
				line = bytes.Count(src, []byte("\n")) + 1
				msg += " at end of file"
			}
			return nil, &Problem{File: name, Line: line, Message: "syntax error: " + msg}
		}
		prob := problemFromLua(err.Error())
		if prob.File == "" {
			prob.File = name
		}
		return nil, &prob
	}
	groupConcats(chunk)
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		prob := problemFromLua(err.Error())
		if prob.File == "" {
			prob.File = name
		}
		return nil, &prob
	}
	untailCalls(proto)
	return proto, nil
}

// untailCalls turns every tail call of proto and the functions inside it
// into an ordinary call followed by its return.
//
// gopher-lua runs a tail call in the caller's frame and counts it in that
// frame, and every walk of the call chain walks that count too: the stack
// trace an error carries (one line per tail call, cut to 20 only after it
// is built), Where, GetStack, the memory watchdog's footprint. A tail call
// loop ("return f()", or a table whose __call returns s()) ran millions
// of tail calls in its 250 ms, and the error at its end then built a
// trace of hundreds of megabytes for seconds. As an ordinary call each
// one takes a frame, so the loop ends at the call stack's 200 frames
// ("stack overflow"), with its place, and every walk of the chain stays
// bounded by those 200. Nothing else changes: the compiler made the call
// an ordinary one returning all its results ("return f(x)" is CALL A B 0
// followed by RETURN A 0) before it renamed it TAILCALL, so renaming it
// back is exact; only the depth such a loop may reach differs.
func untailCalls(proto *lua.FunctionProto) {
	code := proto.Code
	for pc := 0; pc < len(code); pc++ {
		switch op := int(code[pc] >> 26); {
		case op == lua.OP_TAILCALL:
			code[pc] = code[pc]&0x3ffffff | uint32(lua.OP_CALL)<<26
		case op == lua.OP_SETLIST && (code[pc]>>9)&0x1ff == 0:
			pc++ // the next word is SETLIST's operand, not an instruction
		}
	}
	for _, inner := range proto.FunctionPrototypes {
		untailCalls(inner)
	}
}

// Entry is the path of the entry script.
func (p *Program) Entry() string { return p.entry }

// Files lists the compiled files, sorted.
func (p *Program) Files() []string {
	names := make([]string, 0, len(p.protos))
	for n := range p.protos {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
