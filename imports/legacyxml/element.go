package legacyxml

import (
	"strconv"
	"strings"
)

// Element is one element of a document, as read: nothing is interpreted
// or dropped (comments and processing instructions aside).
type Element struct {
	Name     string
	Attrs    []Attr
	Children []*Element
	// Text is the character data directly inside the element (CDATA
	// included), as written: line breaks and indentation are kept.
	Text string
	// Line is where the element starts; Index is its position among its
	// same-named siblings (1-based), for its Path.
	Line  int
	Index int

	parent *Element
}

// Attr is an attribute as written.
type Attr struct {
	Name, Value string
}

// Path is where the element is: "compendium/monster[3]/action[2]/text"
// (an index only where the element has same-named siblings before it, or
// is not the first of its name).
func (e *Element) Path() string {
	var parts []string
	for el := e; el != nil; el = el.parent {
		part := el.Name
		if el.Index > 1 || (el.parent != nil && el.parent.count(el.Name) > 1) {
			part += "[" + strconv.Itoa(el.Index) + "]"
		}
		parts = append(parts, part)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

// count is how many children named name the element has (read so far).
func (e *Element) count(name string) int {
	n := 0
	for _, c := range e.Children {
		if c.Name == name {
			n++
		}
	}
	return n
}

// Attr returns the value of the named attribute ("" when absent).
func (e *Element) Attr(name string) string {
	for _, a := range e.Attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

// Child returns the first child of that name, or nil.
func (e *Element) Child(name string) *Element {
	for _, c := range e.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// ChildText is the trimmed text of the first child of that name ("" when
// there is none).
func (e *Element) ChildText(name string) string {
	if c := e.Child(name); c != nil {
		return strings.TrimSpace(c.Text)
	}
	return ""
}

// Table converts the element to plain values, the shape an import hook
// receives (documented in docs/system-authoring.md):
//
//   - an element with neither attributes nor children is its text, with
//     surrounding white space trimmed and inner line breaks kept
//     (<name> Goblin </name> -> "Goblin"; <cr/> -> "");
//   - any other element is a map: each child under its name (a child
//     that appears more than once becomes a list of its values, in
//     document order), its attributes under "_attr" (a map of strings)
//     and its own non-blank text under "_text".
//
// Element names never start with a digit, so a map never has a key a
// list would, and "_attr" and "_text" never collide with the legacy
// formats' element names.
func (e *Element) Table() any {
	if len(e.Attrs) == 0 && len(e.Children) == 0 {
		return strings.TrimSpace(e.Text)
	}
	m := make(map[string]any, len(e.Children)+1)
	if len(e.Attrs) > 0 {
		attrs := make(map[string]any, len(e.Attrs))
		for _, a := range e.Attrs {
			attrs[a.Name] = a.Value
		}
		m["_attr"] = attrs
	}
	if t := strings.TrimSpace(e.Text); t != "" {
		m["_text"] = t
	}
	for _, c := range e.Children {
		v := c.Table()
		switch prev := m[c.Name].(type) {
		case nil:
			m[c.Name] = v
		case []any: // a third <x> or more (a child's value is never a list)
			m[c.Name] = append(prev, v)
		default:
			m[c.Name] = []any{prev, v}
		}
	}
	return m
}
