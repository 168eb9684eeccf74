package templates

import (
	"regexp"
	"strconv"
	"strings"
)

// Strict variables.
//
// pongo2 prints a missing variable as an empty string, which hides typos in
// templates ({{ view.armour }} for {{ view.armor }}). We make printing a
// missing variable an error: while loading a template, every output tag
// whose expression starts with a variable path, {{ a.b.c }} or
// {{ a.b.c|filter... }}, is rewritten to pass the path's value through the
// strictFilter first, which fails when the value is missing. The rewrite
// stays on the same line, so pongo2's positions still hold.
//
// Not strict: tags ({% if view.x %}, {% for %}) — testing for a key is how
// optional parts are written — and output tags using the default or
// default_if_none filter. A JSON null is not missing: it prints as empty.

const strictFilterName = "companion_strict"

var (
	outputTag    = regexp.MustCompile(`\{\{-?(.*?)-?\}\}`)
	leadingPath  = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*(\|.*)?$`)
	usesDefault  = regexp.MustCompile(`\|\s*default(_if_none)?\b`)
	notVariables = map[string]bool{"true": true, "false": true, "none": true, "nil": true, "not": true}
)

// strictSource rewrites the output tags of a template source (see above).
// file is the name used in the error messages.
func strictSource(file, src string) string {
	lines := strings.SplitAfter(src, "\n")
	// Output tags do not span lines in practice; handle them line by line
	// so that the line number is at hand.
	for i, line := range lines {
		if !strings.Contains(line, "{{") {
			continue
		}
		lineNo := i + 1
		lines[i] = outputTag.ReplaceAllStringFunc(line, func(tag string) string {
			m := outputTag.FindStringSubmatch(tag)
			inner := m[1]
			pm := leadingPath.FindStringSubmatch(inner)
			if pm == nil || usesDefault.MatchString(inner) {
				return tag
			}
			path := pm[1]
			if notVariables[strings.ToLower(path)] {
				return tag
			}
			where := file + ":" + strconv.Itoa(lineNo) + " " + path
			return strings.Replace(tag, path, path+"|"+strictFilterName+":"+strconv.Quote(where), 1)
		})
	}
	return strings.Join(lines, "")
}
