package templates

import (
	"bytes"
	"html"
	"strings"
)

// PageData is what the reference page layout wraps around a view.
type PageData struct {
	Title  string // the entity's name
	System string // the system's name
	Kind   string
	CSS    []string // theme CSS, inlined in order
	Body   []byte   // the rendered view template
}

// Page renders the built-in reference page layout: a complete HTML
// document with the title, the theme CSS inline and the view's HTML.
// It is written by hand rather than with a template: it has four holes and
// sits on the hot path of every page.
func Page(p PageData) []byte {
	var b bytes.Buffer // its bytes are the result: no copy at the end
	size := 400 + len(p.Body)
	for _, css := range p.CSS {
		size += len(css)
	}
	b.Grow(size)
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	b.WriteString(html.EscapeString(p.Title))
	if p.System != "" {
		b.WriteString(" · ")
		b.WriteString(html.EscapeString(p.System))
	}
	b.WriteString("</title>\n")
	if len(p.CSS) > 0 {
		b.WriteString("<style>\n")
		for _, css := range p.CSS {
			// A stylesheet cannot close the <style> element early.
			b.WriteString(strings.ReplaceAll(css, "</", "<\\/"))
			if !strings.HasSuffix(css, "\n") {
				b.WriteByte('\n')
			}
		}
		b.WriteString("</style>\n")
	}
	b.WriteString("</head>\n<body class=\"companion-reference kind-")
	b.WriteString(html.EscapeString(p.Kind))
	b.WriteString("\">\n<main class=\"reference\">\n")
	b.Write(p.Body)
	if len(p.Body) > 0 && p.Body[len(p.Body)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes()
}

// PageCSS is the built-in style of module pages (kind "page"), under the
// system's theme: readable text, images and tables that fit a phone, the
// boxed read-aloud text of adventures (blockquote class "read").
const PageCSS = `.kind-page main.reference { max-width: 46rem; margin: 0 auto; }
.kind-page article.page { overflow-wrap: anywhere; }
.kind-page article.page img { max-width: 100%; height: auto; }
.kind-page article.page table { border-collapse: collapse; margin: 0.75rem 0; }
.kind-page article.page th, .kind-page article.page td { border-bottom: 1px solid rgba(0,0,0,0.2); padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
.kind-page article.page blockquote { margin: 0.75rem 0; padding: 0.25rem 1rem; border-left: 4px solid rgba(0,0,0,0.3); }
.kind-page article.page pre { overflow-x: auto; }
.kind-page header.page-head h1 { margin-bottom: 0.25rem; }
.kind-page header.page-head p { margin-top: 0; opacity: 0.7; }
`
