// Package scripting runs the Lua half of a game system: a sandboxed
// gopher-lua runtime with a bounded pool of prepared states per system
// version, exact conversion between JSON values and Lua, and the
// `companion` module authors call to declare kinds, types and settings.
package scripting

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Problem is one thing wrong with a system, located in a file of its folder.
// Line is 0 when the problem concerns the whole file.
type Problem struct {
	File    string
	Line    int
	Message string
}

func (p Problem) String() string {
	switch {
	case p.File == "":
		return p.Message
	case p.Line <= 0:
		return p.File + ": " + p.Message
	default:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
}

// Problems is a list of problems reported together; it is an error whose
// text is one "file:line: message" per line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Add appends a problem.
func (ps *Problems) Add(file string, line int, format string, args ...any) {
	*ps = append(*ps, Problem{File: file, Line: line, Message: fmt.Sprintf(format, args...)})
}

// Err returns ps as an error, or nil when it is empty.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// ScriptError is a failure of a Lua call (a runtime error, a timeout, a
// stack overflow, a bad return value), located where it happened.
type ScriptError struct {
	Problem
	// Timeout is set when the call ran past its deadline.
	Timeout bool
}

func (e *ScriptError) Error() string { return e.Problem.String() }

// luaPosition matches the "file:line: message" prefix Lua puts on errors
// (the message may span lines).
var luaPosition = regexp.MustCompile(`^([^\s:][^:\n]*):(\d+):\s?((?s:.*))$`)

// maxProblemText bounds the message of a problem, as print() lines are
// bounded: error(s) takes any string a script builds (up to the 4 MiB a
// call may build), and each failing request logs it.
const maxProblemText = maxPrintBytes

// problemFromLua splits a Lua error message into its position and text.
func problemFromLua(msg string) Problem {
	// The position is at the start: what lies past the longest message
	// kept is never read (a path is far shorter than the margin).
	msg = cutText(msg, maxProblemText+1024)
	msg = strings.TrimSpace(msg)
	// gopher-lua appends a traceback after the message; keep the first line.
	if i := strings.Index(msg, "\nstack traceback:"); i >= 0 {
		msg = strings.TrimSpace(msg[:i])
	}
	if m := luaPosition.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[2])
		return Problem{File: m[1], Line: line, Message: cutText(m[3], maxProblemText)}
	}
	return Problem{Message: cutText(msg, maxProblemText)}
}

// cutText cuts s to at most n bytes, at a rune boundary, marking the cut.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
