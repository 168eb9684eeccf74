package pagehtml

import (
	"html"
	"regexp"
	"strconv"
	"strings"
)

// ParseMarkdown converts a page written in Markdown to HTML and reads that
// as Parse does. The Markdown read is the common core: ATX and setext
// headings, paragraphs, emphasis (** __ * _), ~~strike~~, `code`, fenced
// and indented code blocks, block quotes, bulleted and numbered lists
// (nested by indentation), pipe tables, rules, [links](url "title"),
// ![images](src), <https://autolinks>, hard breaks (two spaces or a
// backslash at the end of a line) and backslash escapes. HTML written in
// the Markdown is shown as text, never taken as markup.
func ParseMarkdown(src string) *Doc {
	return Parse(MarkdownHTML(src))
}

// ParseContent reads a page's content in its format ("markdown", or HTML
// for anything else).
func ParseContent(content, format string) *Doc {
	if strings.EqualFold(format, "markdown") {
		return ParseMarkdown(content)
	}
	return Parse(content)
}

// MarkdownHTML converts Markdown to (unsanitised, but escaped) HTML.
func MarkdownHTML(src string) string {
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = expandTabs(l)
	}
	var b strings.Builder
	mdBlocks(&b, lines, 0)
	return b.String()
}

// maxBlockDepth bounds nested quotes and lists; deeper markers are text.
const maxBlockDepth = 16

func expandTabs(l string) string {
	if !strings.Contains(l, "\t") {
		return l
	}
	var b strings.Builder
	col := 0
	for _, r := range l {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

var (
	mdHeading   = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	mdRule      = regexp.MustCompile(`^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	mdFence     = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	mdItem      = regexp.MustCompile(`^( {0,3})([-*+]|\d{1,9}[.)])( +|$)`)
	mdTableSep  = regexp.MustCompile(`^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$`)
	mdSetextOne = regexp.MustCompile(`^ {0,3}=+[ \t]*$`)
	mdSetextTwo = regexp.MustCompile(`^ {0,3}-+[ \t]*$`)
)

func blank(l string) bool { return strings.TrimSpace(l) == "" }

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// startsBlock reports whether a line opens a block other than a paragraph
// (and so ends a paragraph written before it).
func startsBlock(l string) bool {
	return mdHeading.MatchString(l) || mdRule.MatchString(l) || mdFence.MatchString(l) ||
		strings.HasPrefix(strings.TrimLeft(l, " "), ">") || mdItem.MatchString(l)
}

// mdBlocks writes the blocks of lines.
func mdBlocks(b *strings.Builder, lines []string, depth int) {
	for i := 0; i < len(lines); {
		l := lines[i]
		switch {
		case blank(l):
			i++
		case mdFence.MatchString(l):
			i = mdFenced(b, lines, i)
		case indentOf(l) >= 4:
			var code []string
			for i < len(lines) && (indentOf(lines[i]) >= 4 || blank(lines[i])) {
				code = append(code, strings.TrimPrefix(lines[i], "    "))
				i++
			}
			for len(code) > 0 && blank(code[len(code)-1]) {
				code = code[:len(code)-1]
			}
			b.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
		case mdHeading.MatchString(l):
			m := mdHeading.FindStringSubmatch(l)
			n := strconv.Itoa(len(m[1]))
			b.WriteString("<h" + n + ">" + mdInline(m[2]) + "</h" + n + ">\n")
			i++
		case mdRule.MatchString(l):
			b.WriteString("<hr>\n")
			i++
		case strings.HasPrefix(strings.TrimLeft(l, " "), ">") && depth < maxBlockDepth:
			var inner []string
			for i < len(lines) && !blank(lines[i]) {
				t := strings.TrimLeft(lines[i], " ")
				if strings.HasPrefix(t, ">") {
					t = strings.TrimPrefix(strings.TrimPrefix(t, ">"), " ")
				} else if startsBlock(lines[i]) {
					break
				}
				inner = append(inner, t)
				i++
			}
			b.WriteString("<blockquote>\n")
			mdBlocks(b, inner, depth+1)
			b.WriteString("</blockquote>\n")
		case mdItem.MatchString(l) && depth < maxBlockDepth:
			i = mdList(b, lines, i, depth)
		case i+1 < len(lines) && strings.Contains(l, "|") && mdTableSep.MatchString(lines[i+1]) && strings.Contains(lines[i+1], "-"):
			i = mdTable(b, lines, i)
		default:
			i = mdParagraph(b, lines, i)
		}
	}
}

func mdFenced(b *strings.Builder, lines []string, i int) int {
	fence := mdFence.FindStringSubmatch(lines[i])[1]
	var code []string
	i++
	for i < len(lines) {
		t := strings.TrimLeft(lines[i], " ")
		if strings.HasPrefix(t, fence[:3]) && strings.Trim(t, string(fence[0])+" ") == "" && len(strings.TrimRight(t, " ")) >= len(fence) {
			i++
			break
		}
		code = append(code, lines[i])
		i++
	}
	b.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
	return i
}

func mdParagraph(b *strings.Builder, lines []string, i int) int {
	var para []string
	for i < len(lines) && !blank(lines[i]) {
		if len(para) > 0 {
			switch {
			case mdSetextOne.MatchString(lines[i]):
				b.WriteString("<h1>" + mdInline(strings.Join(para, "\n")) + "</h1>\n")
				return i + 1
			case mdSetextTwo.MatchString(lines[i]):
				b.WriteString("<h2>" + mdInline(strings.Join(para, "\n")) + "</h2>\n")
				return i + 1
			case startsBlock(lines[i]):
				b.WriteString("<p>" + mdInline(strings.Join(para, "\n")) + "</p>\n")
				return i
			}
		}
		para = append(para, strings.TrimLeft(lines[i], " "))
		i++
	}
	b.WriteString("<p>" + mdInline(strings.Join(para, "\n")) + "</p>\n")
	return i
}

// mdList writes a list: items of the same kind of marker, each holding the
// lines indented past its marker (and lazy continuation lines).
func mdList(b *strings.Builder, lines []string, i, depth int) int {
	first := mdItem.FindStringSubmatch(lines[i])
	ordered := first[2][0] >= '0' && first[2][0] <= '9'
	tag := "ul"
	if ordered {
		tag = "ol"
		if n, err := strconv.Atoi(strings.TrimRight(first[2], ".)")); err == nil && n != 1 {
			b.WriteString(`<ol start="` + strconv.Itoa(n) + `">` + "\n")
		} else {
			b.WriteString("<ol>\n")
		}
	} else {
		b.WriteString("<ul>\n")
	}
	type item struct{ lines []string }
	var items []item
	loose := false
	for i < len(lines) {
		m := mdItem.FindStringSubmatch(lines[i])
		if m == nil || (m[2][0] >= '0' && m[2][0] <= '9') != ordered || len(m[1]) > indentOf(lines[i]) {
			break
		}
		contentIndent := len(m[0])
		if m[3] == "" || len(m[3]) > 4 { // no text on the marker's line, or code: one space
			contentIndent = len(m[1]) + len(m[2]) + 1
		}
		it := item{lines: []string{strings.TrimLeft(lines[i][len(m[0]):], " ")}}
		i++
		for i < len(lines) {
			l := lines[i]
			if blank(l) {
				// A blank line stays in the item when more of it follows.
				if i+1 < len(lines) && !blank(lines[i+1]) && indentOf(lines[i+1]) >= contentIndent {
					it.lines = append(it.lines, "")
					loose = true
					i++
					continue
				}
				break
			}
			if indentOf(l) >= contentIndent {
				it.lines = append(it.lines, l[contentIndent:])
				i++
				continue
			}
			if mdItem.MatchString(l) || startsBlock(l) {
				break
			}
			it.lines = append(it.lines, strings.TrimLeft(l, " ")) // lazy continuation
			i++
		}
		items = append(items, it)
		// Blank lines between items make the list loose.
		if i < len(lines) && blank(lines[i]) {
			j := i
			for j < len(lines) && blank(lines[j]) {
				j++
			}
			if j < len(lines) {
				if m := mdItem.FindStringSubmatch(lines[j]); m != nil && (m[2][0] >= '0' && m[2][0] <= '9') == ordered && indentOf(lines[j]) <= 3 {
					loose = true
					i = j
					continue
				}
			}
			break
		}
	}
	for _, it := range items {
		var inner strings.Builder
		mdBlocks(&inner, it.lines, depth+1)
		body := inner.String()
		if !loose {
			body = unwrapParagraphs(body)
		}
		b.WriteString("<li>" + strings.TrimRight(body, "\n") + "</li>\n")
	}
	b.WriteString("</" + tag + ">\n")
	return i
}

// unwrapParagraphs turns the paragraphs of a tight list item into bare
// text (the item's other blocks stay).
func unwrapParagraphs(s string) string {
	s = strings.ReplaceAll(s, "<p>", "")
	return strings.ReplaceAll(s, "</p>\n", "\n")
}

func mdTable(b *strings.Builder, lines []string, i int) int {
	head := splitRow(lines[i])
	aligns := splitRow(lines[i+1])
	align := make([]string, len(head))
	for c := range head {
		if c < len(aligns) {
			a := strings.TrimSpace(aligns[c])
			switch {
			case strings.HasPrefix(a, ":") && strings.HasSuffix(a, ":"):
				align[c] = ` align="center"`
			case strings.HasSuffix(a, ":"):
				align[c] = ` align="right"`
			case strings.HasPrefix(a, ":"):
				align[c] = ` align="left"`
			}
		}
	}
	b.WriteString("<table>\n<thead>\n<tr>")
	for c, cell := range head {
		b.WriteString("<th" + align[c] + ">" + mdInline(strings.TrimSpace(cell)) + "</th>")
	}
	b.WriteString("</tr>\n</thead>\n<tbody>\n")
	i += 2
	for i < len(lines) && !blank(lines[i]) && strings.Contains(lines[i], "|") {
		cells := splitRow(lines[i])
		b.WriteString("<tr>")
		for c := range head {
			text := ""
			if c < len(cells) {
				text = strings.TrimSpace(cells[c])
			}
			b.WriteString("<td" + align[c] + ">" + mdInline(text) + "</td>")
		}
		b.WriteString("</tr>\n")
		i++
	}
	b.WriteString("</tbody>\n</table>\n")
	return i
}

// splitRow splits a table row at its unescaped bars (outer bars dropped).
func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	if strings.HasSuffix(l, "|") && !strings.HasSuffix(l, `\|`) {
		l = l[:len(l)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			cur.WriteByte('|')
			i++
		case l[i] == '|':
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(l[i])
		}
	}
	return append(cells, cur.String())
}

// mdInline converts the inline Markdown of a block's text to HTML.
func mdInline(s string) string {
	var b strings.Builder
	inline(&b, s, 0)
	return b.String()
}

const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// inline writes s, finding code spans, links, images, autolinks,
// emphasis and breaks; everything else is escaped text.
func inline(b *strings.Builder, s string, depth int) {
	text := func(t string) { b.WriteString(html.EscapeString(t)) }
	scanned := map[string]int{}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte(asciiPunct, s[i+1]) >= 0:
			text(s[i+1 : i+2])
			i += 2
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteString("<br>\n")
			i += 2
			continue
		case c == ' ':
			// Two spaces or more before a line break make a hard break.
			if run := countRun(s, i, ' '); i+run < len(s) && s[i+run] == '\n' {
				if run >= 2 {
					b.WriteString("<br>")
				}
				i += run
				continue
			}
		case c == '`':
			run := countRun(s, i, '`')
			if end := strings.Index(window(s, i+run), s[i:i+run]); end >= 0 {
				code := s[i+run : i+run+end]
				if len(strings.TrimSpace(code)) > 0 && strings.HasPrefix(code, " ") && strings.HasSuffix(code, " ") {
					code = code[1 : len(code)-1]
				}
				b.WriteString("<code>" + html.EscapeString(strings.ReplaceAll(code, "\n", " ")) + "</code>")
				i += run + end + run
				continue
			}
			text(s[i : i+run])
			i += run
			continue
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			if label, dest, title, n, ok := linkAt(s, i+1); ok {
				b.WriteString(`<img src="` + html.EscapeString(dest) + `" alt="` + html.EscapeString(plainText(label)) + `"`)
				if title != "" {
					b.WriteString(` title="` + html.EscapeString(title) + `"`)
				}
				b.WriteString(">")
				i = i + 1 + n
				continue
			}
		case c == '[':
			if label, dest, title, n, ok := linkAt(s, i); ok && depth < 8 {
				b.WriteString(`<a href="` + html.EscapeString(dest) + `"`)
				if title != "" {
					b.WriteString(` title="` + html.EscapeString(title) + `"`)
				}
				b.WriteString(">")
				inline(b, label, depth+1)
				b.WriteString("</a>")
				i += n
				continue
			}
		case c == '<':
			if end := strings.IndexByte(s[i:], '>'); end > 0 {
				u := s[i+1 : i+end]
				lower := strings.ToLower(u)
				if (strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "mailto:")) && !strings.ContainsAny(u, " <") {
					b.WriteString(`<a href="` + html.EscapeString(u) + `">` + html.EscapeString(strings.TrimPrefix(u, "mailto:")) + "</a>")
					i += end + 1
					continue
				}
			}
		case (c == '*' || c == '_' || c == '~') && depth < 8:
			if n, ok := emphasisAt(b, s, i, depth, scanned); ok {
				i = n
				continue
			}
		}
		text(s[i : i+1])
		i++
	}
}

// inlineWindow is how far a closing mark (of emphasis, a code span, a
// link) is looked for: bounded, so that text full of unclosed marks costs
// time in proportion to its length.
const inlineWindow = 2048

// window is s from i, at most inlineWindow bytes.
func window(s string, i int) string { return s[i:min(len(s), i+inlineWindow)] }

func countRun(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// emphasisAt writes the emphasis opening at s[i] when it has a closing
// delimiter, and returns where the text goes on. scanned remembers, per
// delimiter, how far an earlier opener looked without finding a closer:
// whether a place closes does not depend on the opener, so a later opener
// of the same delimiter starts looking there, and a line of unclosed
// marks is read once, not once per mark.
func emphasisAt(b *strings.Builder, s string, i, depth int, scanned map[string]int) (int, bool) {
	c := s[i]
	run := countRun(s, i, c)
	if c == '~' && run != 2 {
		return 0, false
	}
	if run > 3 {
		return 0, false
	}
	// An opening delimiter is followed by a non-space; an underscore does
	// not open inside a word (snake_case stays as written).
	if i+run >= len(s) || s[i+run] == ' ' || s[i+run] == '\n' {
		return 0, false
	}
	if c == '_' && i > 0 && isWordByte(s[i-1]) {
		return 0, false
	}
	delim := s[i : i+run]
	limit := min(len(s), i+inlineWindow)
	from := max(i+run+1, scanned[delim])
	ticks := strings.Count(s[i+run:min(from, len(s))], "`")
	for j := from; j+run <= limit; j++ {
		if s[j] == '`' {
			ticks++
		}
		if s[j:j+run] != delim || s[j-1] == ' ' || s[j-1] == '\n' || (j+run < len(s) && s[j+run] == c) {
			continue
		}
		if c == '_' && j+run < len(s) && isWordByte(s[j+run]) {
			continue
		}
		if ticks%2 == 1 {
			continue // the closer is inside a code span
		}
		inner := s[i+run : j]
		switch {
		case c == '~':
			b.WriteString("<del>")
			inline(b, inner, depth+1)
			b.WriteString("</del>")
		case run == 1:
			b.WriteString("<em>")
			inline(b, inner, depth+1)
			b.WriteString("</em>")
		case run == 2:
			b.WriteString("<strong>")
			inline(b, inner, depth+1)
			b.WriteString("</strong>")
		default:
			b.WriteString("<strong><em>")
			inline(b, inner, depth+1)
			b.WriteString("</em></strong>")
		}
		return j + run, true
	}
	scanned[delim] = limit
	return 0, false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// linkAt reads "[label](dest "title")" at s[i]: the label, destination,
// optional title and the length read.
func linkAt(s string, i int) (label, dest, title string, n int, ok bool) {
	depth, j := 0, i
	for limit := min(len(s), i+inlineWindow); j < limit; j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if depth != 0 || j+1 >= len(s) || s[j+1] != '(' {
		return "", "", "", 0, false
	}
	label = s[i+1 : j]
	k := j + 2
	end, parens := -1, 0 // the ')' that closes, parentheses inside balanced
	for x, w := 0, window(s, k); x < len(w) && end < 0; x++ {
		switch w[x] {
		case '(':
			parens++
		case ')':
			if parens == 0 {
				end = x
			}
			parens--
		}
	}
	if end < 0 {
		return "", "", "", 0, false
	}
	inside := strings.TrimSpace(s[k : k+end])
	if strings.HasPrefix(inside, "<") {
		if close := strings.IndexByte(inside, '>'); close > 0 {
			dest, inside = inside[1:close], strings.TrimSpace(inside[close+1:])
		}
	} else if sp := strings.IndexAny(inside, " \n"); sp >= 0 {
		dest, inside = inside[:sp], strings.TrimSpace(inside[sp:])
	} else {
		dest, inside = inside, ""
	}
	if len(inside) >= 2 && (inside[0] == '"' || inside[0] == '\'') && inside[len(inside)-1] == inside[0] {
		title = inside[1 : len(inside)-1]
	} else if inside != "" {
		return "", "", "", 0, false
	}
	return label, dest, title, k + end + 1 - i, true
}

// plainText is a label's text without Markdown marks (an image's alt).
func plainText(s string) string {
	return strings.NewReplacer("*", "", "_", "", "`", "").Replace(s)
}
