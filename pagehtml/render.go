package pagehtml

import (
	"html"
	"strings"
)

// HTML writes the document as HTML: text and attribute values escaped,
// every element closed.
func (d *Doc) HTML() string {
	var b strings.Builder
	for _, n := range d.Nodes {
		writeNode(&b, n)
	}
	return b.String()
}

func writeNode(b *strings.Builder, n *Node) {
	if n.Tag == "" {
		b.WriteString(html.EscapeString(n.Text))
		return
	}
	b.WriteByte('<')
	b.WriteString(n.Tag)
	for _, a := range n.Attrs {
		b.WriteByte(' ')
		b.WriteString(a.Key)
		if a.Val == "" && a.Key == "open" {
			continue
		}
		b.WriteString(`="`)
		b.WriteString(html.EscapeString(a.Val))
		b.WriteByte('"')
	}
	b.WriteByte('>')
	if void[n.Tag] {
		return
	}
	for _, c := range n.Children {
		writeNode(b, c)
	}
	b.WriteString("</")
	b.WriteString(n.Tag)
	b.WriteByte('>')
}
