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
		b.WriteString(escape(n.Text))
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
		b.WriteString(escape(a.Val))
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

// escape is html.EscapeString, with a carriage return written as a
// character reference: a parser turns a raw one into a line feed, so
// the document would not read back the same ("&#xd" in a page is a CR).
func escape(s string) string {
	s = html.EscapeString(s)
	if strings.Contains(s, "\r") {
		s = strings.ReplaceAll(s, "\r", "&#13;")
	}
	return s
}
