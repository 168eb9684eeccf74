package pagehtml

import "strings"

// Node is an element of a page, or a run of text (Tag "").
type Node struct {
	Tag      string
	Attrs    []Attr
	Children []*Node
	Text     string
}

// Attr is an attribute of an element, its value as the reader meant it
// (entities decoded).
type Attr struct {
	Key, Val string
}

// Doc is a page body: the nodes at its top level.
type Doc struct {
	Nodes []*Node
}

// Attr returns the value of the attribute key ("" when absent).
func (n *Node) Attr(key string) string {
	for _, a := range n.Attrs {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// HasAttr reports whether the element has the attribute.
func (n *Node) HasAttr(key string) bool {
	for _, a := range n.Attrs {
		if a.Key == key {
			return true
		}
	}
	return false
}

// SetAttr sets (or adds) an attribute.
func (n *Node) SetAttr(key, val string) {
	for i, a := range n.Attrs {
		if a.Key == key {
			n.Attrs[i].Val = val
			return
		}
	}
	n.Attrs = append(n.Attrs, Attr{Key: key, Val: val})
}

// DelAttr removes an attribute.
func (n *Node) DelAttr(key string) {
	out := n.Attrs[:0]
	for _, a := range n.Attrs {
		if a.Key != key {
			out = append(out, a)
		}
	}
	n.Attrs = out
}

// TextContent is the text of a node and everything in it, white space
// collapsed to single spaces.
func (n *Node) TextContent() string {
	var b strings.Builder
	n.appendText(&b)
	return strings.Join(strings.Fields(b.String()), " ")
}

func (n *Node) appendText(b *strings.Builder) {
	if n.Tag == "" {
		b.WriteString(n.Text)
		return
	}
	if n.Tag == "br" {
		b.WriteByte(' ')
	}
	for _, c := range n.Children {
		c.appendText(b)
	}
	if isBlock[n.Tag] {
		b.WriteByte(' ')
	}
}

// Walk calls fn on every node of the document, parents before children.
func (d *Doc) Walk(fn func(n *Node)) {
	var walk func(list []*Node)
	walk = func(list []*Node) {
		for _, n := range list {
			fn(n)
			walk(n.Children)
		}
	}
	walk(d.Nodes)
}

// transform rebuilds a node list: fn returns what stands in a node's place
// (itself, other nodes, or nothing), after the node's children were
// transformed.
func transform(list []*Node, fn func(n *Node) []*Node) []*Node {
	out := make([]*Node, 0, len(list))
	for _, n := range list {
		if n.Tag != "" {
			n.Children = transform(n.Children, fn)
		}
		out = append(out, fn(n)...)
	}
	return out
}

// headingLevel is 1 to 6 for h1 to h6, 0 for anything else.
func headingLevel(tag string) int {
	if len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6' {
		return int(tag[1] - '0')
	}
	return 0
}

// isText reports whether the node is text holding nothing but white space.
func isBlank(n *Node) bool {
	return n.Tag == "" && strings.TrimSpace(n.Text) == ""
}
