package pagehtml

// Link is what a link becomes: a new target (Href), attributes to set on
// it, or, when Unwrap is set, its text alone (a link to what the reader
// may not open).
type Link struct {
	Href   string
	Attrs  []Attr
	Unwrap bool
}

// Links lists the targets of the document's links, in document order,
// each once.
func (d *Doc) Links() []string {
	var out []string
	seen := map[string]bool{}
	d.Walk(func(n *Node) {
		if n.Tag == "a" {
			if h := n.Attr("href"); h != "" && !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
	})
	return out
}

// RewriteLinks changes every link through fn (called with its href and
// its text; a link without one is left as it is). A new href is checked
// like an authored one: an unsafe one unwraps the link.
func (d *Doc) RewriteLinks(fn func(href, text string) Link) {
	d.Nodes = transform(d.Nodes, func(n *Node) []*Node {
		if n.Tag != "a" || !n.HasAttr("href") {
			return []*Node{n}
		}
		l := fn(n.Attr("href"), n.TextContent())
		if l.Unwrap {
			return n.Children
		}
		href, ok := CleanURL(l.Href)
		if !ok {
			return n.Children
		}
		n.SetAttr("href", href)
		for _, a := range l.Attrs {
			n.SetAttr(a.Key, a.Val)
		}
		return []*Node{n}
	})
}

// RewriteImages changes every image's source through fn; when fn says no
// (ok false), the image is replaced by its alternative text, if any.
func (d *Doc) RewriteImages(fn func(src string) (string, bool)) {
	d.Nodes = transform(d.Nodes, func(n *Node) []*Node {
		if n.Tag != "img" {
			return []*Node{n}
		}
		src, ok := fn(n.Attr("src"))
		if ok {
			src, ok = CleanURL(src)
			ok = ok && imageSource(src)
		}
		if !ok {
			if alt := n.Attr("alt"); alt != "" {
				return []*Node{{Text: alt}}
			}
			return nil
		}
		n.SetAttr("src", src)
		return []*Node{n}
	})
}

// Images lists the sources of the document's images, each once.
func (d *Doc) Images() []string {
	var out []string
	seen := map[string]bool{}
	d.Walk(func(n *Node) {
		if n.Tag == "img" {
			if s := n.Attr("src"); s != "" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	})
	return out
}
