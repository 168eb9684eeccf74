package pagehtml

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Markdown writes the document as Markdown, for a text handout (the player
// screen's overlay text, which clients show as Markdown): headings,
// paragraphs, emphasis, links, images, lists, quotes, tables and code.
// Text that Markdown would read as marks is escaped.
func (d *Doc) Markdown() string {
	w := &mdWriter{}
	w.blocks(d.Nodes, "")
	return strings.TrimSpace(w.b.String()) + "\n"
}

type mdWriter struct {
	b strings.Builder
}

// blocks writes nodes as blocks, each line starting with prefix (a quote's
// "> ", a list item's indentation).
func (w *mdWriter) blocks(list []*Node, prefix string) {
	var inlineRun []*Node
	flush := func() {
		if len(inlineRun) == 0 {
			return
		}
		text := strings.TrimSpace(inlineText(inlineRun))
		inlineRun = nil
		if text != "" {
			w.para(text, prefix)
		}
	}
	for _, n := range list {
		if n.Tag == "" || !isBlock[n.Tag] {
			inlineRun = append(inlineRun, n)
			continue
		}
		flush()
		switch {
		case headingLevel(n.Tag) > 0:
			title := strings.Join(strings.Fields(inlineText(n.Children)), " ")
			w.raw(strings.Repeat("#", headingLevel(n.Tag))+" "+title, prefix)
		case n.Tag == "hr":
			w.raw("---", prefix)
		case n.Tag == "pre":
			code := strings.ReplaceAll(n.TextContentRaw(), "```", "` ` `")
			w.raw("```\n"+strings.TrimRight(code, "\n")+"\n```", prefix)
		case n.Tag == "blockquote":
			w.blocks(n.Children, prefix+"> ")
		case n.Tag == "ul" || n.Tag == "ol":
			w.list(n, prefix)
		case n.Tag == "table":
			w.table(n, prefix)
		default: // p, div, section, figure, details...
			w.blocks(n.Children, prefix)
		}
	}
	flush()
}

// raw writes a block as it is (a heading, a rule, code, a table) followed
// by a blank line, every line prefixed.
func (w *mdWriter) raw(text, prefix string) {
	for _, line := range strings.Split(text, "\n") {
		w.b.WriteString(strings.TrimRight(prefix+line, " "))
		w.b.WriteByte('\n')
	}
	w.b.WriteString(strings.TrimRight(prefix, " "))
	w.b.WriteByte('\n')
}

// para writes a paragraph followed by a blank line, every line prefixed;
// a line that would read as a list item is escaped.
func (w *mdWriter) para(text, prefix string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if m := listLike.FindStringSubmatchIndex(line); m != nil {
			if m[2] >= 0 { // "1. x": escape the dot
				line = line[:m[3]] + `\` + line[m[3]:]
			} else {
				line = `\` + line
			}
		}
		w.b.WriteString(strings.TrimRight(prefix+line, " "))
		w.b.WriteByte('\n')
	}
	w.b.WriteString(strings.TrimRight(prefix, " "))
	w.b.WriteByte('\n')
}

func (w *mdWriter) list(n *Node, prefix string) {
	num := 1
	if s, err := strconv.Atoi(n.Attr("start")); err == nil {
		num = s
	}
	for _, item := range n.Children {
		if item.Tag != "li" {
			continue
		}
		marker := "- "
		if n.Tag == "ol" {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		sub := &mdWriter{}
		sub.blocks(item.Children, "")
		lines := strings.Split(strings.TrimSpace(sub.b.String()), "\n")
		indent := strings.Repeat(" ", len(marker))
		for i, line := range lines {
			switch {
			case i == 0:
				w.b.WriteString(prefix + marker + line + "\n")
			case line == "":
				w.b.WriteString(strings.TrimRight(prefix, " ") + "\n")
			default:
				w.b.WriteString(prefix + indent + line + "\n")
			}
		}
	}
	w.b.WriteString(strings.TrimRight(prefix, " ") + "\n")
}

func (w *mdWriter) table(n *Node, prefix string) {
	var rows [][]string
	var walk func(list []*Node)
	walk = func(list []*Node) {
		for _, c := range list {
			switch c.Tag {
			case "thead", "tbody", "tfoot":
				walk(c.Children)
			case "tr":
				var cells []string
				for _, cell := range c.Children {
					if cell.Tag == "td" || cell.Tag == "th" {
						t := strings.TrimSpace(inlineText(cell.Children))
						cells = append(cells, strings.ReplaceAll(strings.ReplaceAll(t, "\n", " "), "|", `\|`))
					}
				}
				rows = append(rows, cells)
			}
		}
	}
	walk(n.Children)
	if len(rows) == 0 {
		return
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	var b strings.Builder
	for i, r := range rows {
		for len(r) < cols {
			r = append(r, "")
		}
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
		if i == 0 {
			b.WriteString("|" + strings.Repeat(" --- |", cols) + "\n")
		}
	}
	w.raw(strings.TrimRight(b.String(), "\n"), prefix)
}

// inlineText writes inline nodes as Markdown text.
func inlineText(list []*Node) string {
	var b strings.Builder
	for _, n := range list {
		switch n.Tag {
		case "":
			b.WriteString(escapeMarkdown(collapseSpace(n.Text)))
		case "br":
			b.WriteString("\n")
		case "strong", "b":
			wrapInline(&b, "**", n.Children)
		case "em", "i", "cite", "var":
			wrapInline(&b, "_", n.Children)
		case "del", "s":
			wrapInline(&b, "~~", n.Children)
		case "code", "kbd", "samp":
			b.WriteString("`" + strings.ReplaceAll(n.TextContent(), "`", "'") + "`")
		case "a":
			label := strings.TrimSpace(inlineText(n.Children))
			if href := n.Attr("href"); href != "" && label != "" {
				b.WriteString("[" + label + "](" + markdownURL(href) + ")")
			} else {
				b.WriteString(label)
			}
		case "img":
			b.WriteString("![" + escapeMarkdown(n.Attr("alt")) + "](" + markdownURL(n.Attr("src")) + ")")
		default:
			if isBlock[n.Tag] {
				b.WriteString("\n" + strings.TrimSpace(inlineText(n.Children)) + "\n")
				continue
			}
			b.WriteString(inlineText(n.Children))
		}
	}
	return b.String()
}

func wrapInline(b *strings.Builder, mark string, children []*Node) {
	inner := inlineText(children)
	trimmed := strings.TrimSpace(inner)
	if trimmed == "" {
		b.WriteString(inner)
		return
	}
	if strings.HasPrefix(inner, " ") {
		b.WriteByte(' ')
	}
	b.WriteString(mark + trimmed + mark)
	if strings.HasSuffix(inner, " ") {
		b.WriteByte(' ')
	}
}

// collapseSpace turns every run of white space into one space (one kept
// at either end: the space between this text and the element beside it).
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// listLike is a line Markdown would read as a list item or a rule.
var listLike = regexp.MustCompile(`^(\d{1,9})([.)])( |$)|^([-+*])( |$)`)

// escapeMarkdown escapes the characters Markdown would read as marks.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '*', '_', '`', '[', ']', '<', '>', '#', '|', '~':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// markdownURL writes a URL so that Markdown reads it whole.
func markdownURL(u string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29").Replace(u)
}

// TextContentRaw is the text of a node and everything in it, as written
// (a code block's line breaks kept).
func (n *Node) TextContentRaw() string {
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Tag == "" {
			b.WriteString(n.Text)
			return
		}
		if n.Tag == "br" {
			b.WriteByte('\n')
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
