// Package templates renders a game system's pongo2 templates: one template
// set per system version rooted in the system's templates/ folder, the
// project filters (registered once per process), strict variables, and the
// reference page layout.
package templates

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/flosch/pongo2/v6"
)

// Set is the template set of one system version. Templates are parsed once
// and cached; a Set is safe for concurrent use.
type Set struct {
	set    *pongo2.TemplateSet
	prefix string // folder shown in error messages, e.g. "templates/"
}

// NewSet returns a set reading templates from fsys (the system's
// templates/ folder). prefix is prepended to file names in error messages.
// Autoescaping is on (pongo2's default, never turned off here).
func NewSet(name string, fsys fs.FS, prefix string) *Set {
	registerBuiltins()
	s := &Set{prefix: prefix}
	s.set = pongo2.NewSet(name, &fsLoader{fsys: fsys})
	return s
}

// fsLoader reads templates from an fs.FS, resolving every name from the
// folder's root (as Django does), and makes output tags strict.
type fsLoader struct{ fsys fs.FS }

func (l *fsLoader) Abs(_, name string) string {
	return path.Clean(strings.TrimPrefix(name, "/"))
}

func (l *fsLoader) Get(name string) (io.Reader, error) {
	if !fs.ValidPath(name) {
		return nil, fmt.Errorf("template %q is outside the templates folder", name)
	}
	src, err := fs.ReadFile(l.fsys, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("template %q not found", name)
		}
		return nil, err
	}
	return strings.NewReader(strictSource(name, string(src))), nil
}

// Template is a parsed template.
type Template struct {
	tpl  *pongo2.Template
	set  *Set
	name string
}

// Load parses (once) and returns the named template. A syntax error, or a
// missing template, is a *Error naming the file and line.
func (s *Set) Load(name string) (*Template, error) {
	tpl, err := s.set.FromCache(name)
	if err != nil {
		return nil, s.wrap(name, err)
	}
	return &Template{tpl: tpl, set: s, name: name}, nil
}

// Render executes the template with the context. An error is a *Error
// naming the template file and line.
func (t *Template) Render(ctx map[string]any) ([]byte, error) {
	// ExecuteBytes hands over pongo2's own buffer; ExecuteWriter would copy
	// it into ours.
	out, err := t.tpl.ExecuteBytes(pongo2.Context(ctx))
	if err != nil {
		return nil, t.set.wrap(t.name, err)
	}
	return out, nil
}

// RenderTo is Render writing to w (a buffer the caller reuses).
func (t *Template) RenderTo(ctx map[string]any, w *bytes.Buffer) error {
	if err := t.tpl.ExecuteWriter(pongo2.Context(ctx), w); err != nil {
		return t.set.wrap(t.name, err)
	}
	return nil
}

// Error is a template failure located in a template file.
type Error struct {
	File    string
	Line    int
	Message string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	}
	return e.File + ": " + e.Message
}

var pongoPrefix = regexp.MustCompile(`^\[Error[^\]]*\]\s*`)

// wrap turns a pongo2 error into an *Error with the file and line.
func (s *Set) wrap(name string, err error) error {
	var perr *pongo2.Error
	if errors.As(err, &perr) {
		// pongo2 errors do not unwrap; look at the original error ourselves.
		var missing *MissingVariableError
		if errors.As(perr.OrigError, &missing) {
			file, line := splitWhere(missing.Where)
			return &Error{File: s.prefix + file, Line: line, Message: missing.message()}
		}
		file := perr.Filename
		if perr.Token != nil && perr.Token.Filename != "" {
			file = perr.Token.Filename // the file holding the line, e.g. the includer
		}
		if file == "" || file == "<string>" {
			file = name
		}
		msg := err.Error()
		if perr.OrigError != nil {
			msg = perr.OrigError.Error()
		}
		msg = pongoPrefix.ReplaceAllString(msg, "")
		if perr.Token != nil && perr.Token.Val != "" && perr.Line > 0 {
			msg += fmt.Sprintf(" (near '%s')", perr.Token.Val)
		}
		return &Error{File: s.prefix + file, Line: perr.Line, Message: msg}
	}
	return &Error{File: s.prefix + name, Message: err.Error()}
}

func splitWhere(where string) (string, int) {
	i := strings.LastIndexByte(where, ':')
	if i < 0 {
		return where, 0
	}
	n, _ := strconv.Atoi(where[i+1:])
	return where[:i], n
}
