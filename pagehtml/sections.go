package pagehtml

// Section is a part of a page a heading opens: the heading and what
// follows it, up to the next heading of the same level or higher. Its ID
// is the heading's id (Parse gives every such heading one).
type Section struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Level int    `json:"level"`
}

// containers are the elements a page may wrap its whole body in; the
// sections are those of what they hold.
var containers = setOf("div section article main")

// sectionRoot returns the chain of single wrapping containers (a body
// written as one <div> holding everything) and the node list whose
// headings open sections.
func (d *Doc) sectionRoot() (wrappers []*Node, list []*Node) {
	list = d.Nodes
	for {
		var only *Node
		for _, n := range list {
			if isBlank(n) {
				continue
			}
			if only != nil || !containers[n.Tag] {
				return wrappers, list
			}
			only = n
		}
		if only == nil {
			return wrappers, list
		}
		wrappers = append(wrappers, only)
		list = only.Children
	}
}

func (d *Doc) sectionNodes() []*Node {
	_, list := d.sectionRoot()
	return list
}

// Sections lists the page's sections in document order.
func (d *Doc) Sections() []Section {
	var out []Section
	for _, n := range d.sectionNodes() {
		if level := headingLevel(n.Tag); level > 0 && n.Attr("id") != "" {
			out = append(out, Section{ID: n.Attr("id"), Title: n.TextContent(), Level: level})
		}
	}
	return out
}

// HasSection reports whether id names a section of the page.
func (d *Doc) HasSection(id string) bool {
	for _, s := range d.Sections() {
		if s.ID == id {
			return true
		}
	}
	return false
}

// Only returns a new document holding only the sections named (each with the
// sections inside it), in document order; what precedes the first heading
// and every other section are left out. The wrapping containers are kept
// around what remains. Unknown ids select nothing.
func (d *Doc) Only(ids []string) *Doc {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	wrappers, list := d.sectionRoot()
	var kept []*Node
	openLevel := 0 // the level of the selected section being copied; 0 when none
	for _, n := range list {
		if level := headingLevel(n.Tag); level > 0 {
			switch {
			case openLevel > 0 && level > openLevel:
				// a subsection of the selected one: kept with it
			case want[n.Attr("id")]:
				openLevel = level
			default:
				openLevel = 0
			}
		}
		if openLevel > 0 {
			kept = append(kept, n)
		}
	}
	// Rebuild the wrappers around the kept nodes (shallow copies: the
	// original document is not changed).
	for i := len(wrappers) - 1; i >= 0; i-- {
		w := *wrappers[i]
		w.Children = kept
		kept = []*Node{&w}
	}
	return (&Doc{Nodes: kept}).Clone()
}

// Clone returns a deep copy, which transforms may change freely.
func (d *Doc) Clone() *Doc {
	var clone func(list []*Node) []*Node
	clone = func(list []*Node) []*Node {
		out := make([]*Node, len(list))
		for i, n := range list {
			c := *n
			c.Attrs = append([]Attr(nil), n.Attrs...)
			c.Children = clone(n.Children)
			out[i] = &c
		}
		return out
	}
	return &Doc{Nodes: clone(d.Nodes)}
}
