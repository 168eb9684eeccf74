package pagehtml

import (
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// MaxDepth is how deeply elements may nest; deeper elements are unwrapped
// (their text stays in the element at the limit).
const MaxDepth = 48

// allowed are the elements a page keeps: text structure, lists, tables,
// links and images. Everything else is dropped (dropped) or unwrapped.
var allowed = setOf("p br hr h1 h2 h3 h4 h5 h6 strong b em i u s del ins sub sup small mark " +
	"blockquote q cite code pre kbd samp var abbr time ul ol li dl dt dd " +
	"table thead tbody tfoot tr th td caption colgroup col " +
	"a img figure figcaption div span section article aside header footer details summary")

// void elements have no content and no end tag.
var void = setOf("br hr img col")

// dropped are elements removed with everything inside them: scripts,
// styles, frames, embedded documents and objects, form controls, SVG and
// MathML (which carry their own scripts and links), and the document head.
var dropped = setOf("script style iframe frame frameset object embed applet template noscript " +
	"svg math textarea select button title xmp noembed noframes plaintext canvas audio video picture map")

// isBlock are the elements that end an open paragraph, and whose text
// reads as a block of its own.
var isBlock = setOf("p div h1 h2 h3 h4 h5 h6 ul ol li dl dt dd table thead tbody tfoot tr th td caption " +
	"blockquote pre hr figure figcaption section article aside header footer details summary")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// Parse reads authored HTML into a sanitised document: only allowed
// elements with their allowed attributes, every id and class checked,
// links and image sources of safe schemes only, headings given ids.
func Parse(src string) *Doc {
	b := &builder{root: &Node{Tag: "#root"}}
	b.stack = []*Node{b.root}
	z := html.NewTokenizer(strings.NewReader(src))
	z.SetMaxBuf(0)
	skip, skipping := 0, ""
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break // the end of the text (a string reader has no other error)
		}
		tok := z.Token()
		name := strings.ToLower(tok.Data)
		if skipping != "" {
			switch {
			case tt == html.StartTagToken && name == skipping:
				skip++
			case tt == html.EndTagToken && name == skipping:
				skip--
				if skip == 0 {
					skipping = ""
				}
			}
			continue
		}
		switch tt {
		case html.TextToken:
			b.text(tok.Data)
		case html.StartTagToken, html.SelfClosingTagToken:
			if dropped[name] {
				if tt == html.StartTagToken || rawText[name] {
					skipping, skip = name, 1
				}
				continue
			}
			if !allowed[name] {
				continue // unwrapped: its text stays
			}
			b.start(name, cleanAttrs(name, tok.Attr), tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			if allowed[name] && !void[name] {
				b.end(name)
			}
		}
	}
	b.flushText()
	d := &Doc{Nodes: b.root.Children}
	d.ensureHeadingIDs()
	return d
}

// implicitEnds says which open element a start tag closes (the previous
// item of a list, cell or row of a table), unless an element of barrier is
// nearer (a list inside the item).
var implicitEnds = map[string]struct{ closes, barrier map[string]bool }{
	"li":    {setOf("li"), setOf("ul ol table blockquote div")},
	"dt":    {setOf("dt dd"), setOf("dl table blockquote div")},
	"dd":    {setOf("dt dd"), setOf("dl table blockquote div")},
	"td":    {setOf("td th"), setOf("tr table")},
	"th":    {setOf("td th"), setOf("tr table")},
	"tr":    {setOf("tr"), setOf("table thead tbody tfoot")},
	"thead": {setOf("thead tbody tfoot"), setOf("table")},
	"tbody": {setOf("thead tbody tfoot"), setOf("table")},
	"tfoot": {setOf("thead tbody tfoot"), setOf("table")},
}

// rawText are the dropped elements whose content the tokenizer reads as
// raw text up to their end tag, even when the start tag says it closes
// itself ("<script/>alert(1)</script>"): they are skipped either way.
var rawText = setOf("iframe noembed noframes noscript plaintext script style textarea title xmp")

var langPattern = regexp.MustCompile(`^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$`)

// builder keeps the open elements while a document is read.
type builder struct {
	root  *Node
	stack []*Node
	// textNode is the text node being written (the last child of the top
	// element), its text gathered in textBuf: text split by many dropped
	// or unwrapped tags is joined once, not copied at every piece.
	textNode *Node
	textBuf  strings.Builder
}

func (b *builder) top() *Node { return b.stack[len(b.stack)-1] }

func (b *builder) text(s string) {
	if s == "" {
		return
	}
	parent := b.top()
	if b.textNode != nil && len(parent.Children) > 0 && parent.Children[len(parent.Children)-1] == b.textNode {
		b.textBuf.WriteString(s)
		return
	}
	b.flushText()
	b.textNode = &Node{}
	b.textBuf.WriteString(s)
	parent.Children = append(parent.Children, b.textNode)
}

// flushText finishes the text node being written.
func (b *builder) flushText() {
	if b.textNode != nil {
		b.textNode.Text = b.textBuf.String()
		b.textNode = nil
		b.textBuf.Reset()
	}
}

// start opens an element, closing what HTML closes implicitly first (an
// open paragraph before a block, the previous item of a list, the
// previous cell or row of a table).
func (b *builder) start(name string, attrs []Attr, selfClosing bool) {
	b.flushText()
	if rule, ok := implicitEnds[name]; ok {
		b.closeOpen(rule.closes, rule.barrier)
	}
	if isBlock[name] && b.top().Tag == "p" {
		b.stack = b.stack[:len(b.stack)-1]
	}
	n := &Node{Tag: name, Attrs: attrs}
	if void[name] {
		if name == "img" && !n.HasAttr("src") {
			return // an image without a safe source shows nothing
		}
		b.top().Children = append(b.top().Children, n)
		return
	}
	if len(b.stack) > MaxDepth {
		return // too deep: unwrapped, its text goes to the element at the limit
	}
	b.top().Children = append(b.top().Children, n)
	if !selfClosing {
		b.stack = append(b.stack, n)
	}
}

// closeOpen closes the nearest open element named in names, unless an
// element named in barrier is nearer.
func (b *builder) closeOpen(names, barrier map[string]bool) {
	for i := len(b.stack) - 1; i > 0; i-- {
		tag := b.stack[i].Tag
		if names[tag] {
			b.stack = b.stack[:i]
			return
		}
		if barrier[tag] {
			return
		}
	}
}

// end closes the nearest open element of that name and everything opened
// inside it; an end tag with no such element open is ignored.
func (b *builder) end(name string) {
	b.flushText()
	for i := len(b.stack) - 1; i > 0; i-- {
		if b.stack[i].Tag == name {
			b.stack = b.stack[:i]
			return
		}
	}
}

var (
	idPattern    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,79}$`)
	classPattern = regexp.MustCompile(`^[A-Za-z_-][A-Za-z0-9_-]{0,39}$`)
)

// cleanAttrs keeps the attributes an element may have, each value checked.
func cleanAttrs(tag string, attrs []html.Attribute) []Attr {
	var out []Attr
	seen := map[string]bool{}
	for _, a := range attrs {
		key := strings.ToLower(a.Key)
		if a.Namespace != "" || seen[key] {
			continue
		}
		val, ok := cleanAttr(tag, key, a.Val)
		if !ok {
			continue
		}
		seen[key] = true
		out = append(out, Attr{Key: key, Val: val})
	}
	return out
}

func cleanAttr(tag, key, val string) (string, bool) {
	switch key {
	case "id":
		return val, idPattern.MatchString(val)
	case "class":
		var keep []string
		for _, c := range strings.Fields(val) {
			if classPattern.MatchString(c) && len(keep) < 8 {
				keep = append(keep, c)
			}
		}
		return strings.Join(keep, " "), len(keep) > 0
	case "title", "alt":
		if key == "alt" && tag != "img" {
			return "", false
		}
		return clip(val, 500), true
	case "lang":
		return val, len(val) <= 35 && langPattern.MatchString(val)
	case "dir":
		return val, val == "ltr" || val == "rtl" || val == "auto"
	case "href":
		if tag != "a" {
			return "", false
		}
		u, ok := CleanURL(val)
		return u, ok && !strings.HasPrefix(strings.ToLower(u), "data:")
	case "src":
		if tag != "img" {
			return "", false
		}
		u, ok := CleanURL(val)
		return u, ok && imageSource(u)
	case "width", "height":
		return val, (tag == "img" || tag == "col") && smallNumber(val, 10000)
	case "colspan", "rowspan":
		return val, (tag == "td" || tag == "th") && smallNumber(val, 1000)
	case "span":
		return val, (tag == "col" || tag == "colgroup") && smallNumber(val, 1000)
	case "start":
		return val, tag == "ol" && smallNumber(val, 1000000)
	case "type":
		return val, tag == "ol" && (val == "1" || val == "a" || val == "A" || val == "i" || val == "I")
	case "align":
		v := strings.ToLower(val)
		return v, (tag == "td" || tag == "th") && (v == "left" || v == "right" || v == "center")
	case "scope":
		v := strings.ToLower(val)
		return v, tag == "th" && (v == "row" || v == "col")
	case "open":
		return "", tag == "details"
	case "datetime":
		return clip(val, 64), tag == "time"
	}
	return "", false
}

func smallNumber(val string, max int) bool {
	n, err := strconv.Atoi(strings.TrimSpace(val))
	return err == nil && n >= 0 && n <= max
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// CleanURL checks a link or image source: white space and control
// characters browsers would ignore inside it are removed first (so
// "java\tscript:" is judged as "javascript:"), then only a fragment
// ("#x"), a path on this server ("/modules/..."), a path relative to the
// page ("map.pdf"), http(s), mailto: or a data:image URL pass. A path
// naming another server without a scheme ("//host", "/\host") does not.
func CleanURL(raw string) (string, bool) {
	u := strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, strings.TrimSpace(raw))
	if u == "" || len(u) > 8192 {
		return "", false
	}
	for _, r := range u {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return "", false
		}
	}
	lower := strings.ToLower(u)
	switch {
	case strings.HasPrefix(u, "#"):
		return u, true
	case strings.HasPrefix(u, "//"):
		return "", false
	case strings.HasPrefix(u, "/"):
		return u, true
	case strings.HasPrefix(lower, "http://"), strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "mailto:"):
		return u, true
	case strings.HasPrefix(lower, "data:"):
		return u, imageSource(u)
	}
	// No scheme: a relative path. A colon before the first '/', '?' or
	// '#' would be a scheme.
	if i := strings.IndexAny(u, ":/?#"); i >= 0 && u[i] == ':' {
		return "", false
	}
	return u, true
}

// imageSource reports whether a cleaned URL may be an image's source:
// anything but a data URL, or a data URL of a raster image (an SVG one
// can carry script).
func imageSource(u string) bool {
	lower := strings.ToLower(u)
	if !strings.HasPrefix(lower, "data:") {
		return !strings.HasPrefix(lower, "mailto:") && !strings.HasPrefix(u, "#")
	}
	for _, t := range []string{"data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif", "data:image/webp", "data:image/avif"} {
		if strings.HasPrefix(lower, t+";") || strings.HasPrefix(lower, t+",") {
			return true
		}
	}
	return false
}

// ensureHeadingIDs gives every heading of the section level an id, so that
// each section has a name a link (#id) and a handout can use: the id it
// was written with when it is unique, else one made from its text.
func (d *Doc) ensureHeadingIDs() {
	used := map[string]bool{}
	d.Walk(func(n *Node) {
		if id := n.Attr("id"); id != "" {
			if used[id] {
				n.DelAttr("id") // the second of two equal ids names nothing
				return
			}
			used[id] = true
		}
	})
	for _, n := range d.sectionNodes() {
		if headingLevel(n.Tag) == 0 || n.Attr("id") != "" {
			continue
		}
		base := slug(n.TextContent())
		if base == "" {
			base = "section"
		}
		id := base
		for i := 2; used[id]; i++ {
			id = base + "-" + strconv.Itoa(i)
		}
		used[id] = true
		n.SetAttr("id", id)
	}
}

// slug makes an id from a heading's text: lower-case ASCII letters and
// digits, other runs as one hyphen, starting with a letter.
func slug(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0:
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		default:
			hyphen = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	return b.String()
}
