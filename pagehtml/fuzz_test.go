package pagehtml

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// checkSafe tokenizes what Parse wrote, as a browser would, and fails on
// any element, attribute or URL the allow-list does not let through.
func checkSafe(t *testing.T, out string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(out))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if tt == html.CommentToken || tt == html.DoctypeToken {
			t.Fatalf("a comment or doctype in %q", out)
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if !allowed[tok.Data] {
			t.Fatalf("element <%s> in %q", tok.Data, out)
		}
		for _, a := range tok.Attr {
			if strings.HasPrefix(a.Key, "on") || a.Key == "style" || a.Key == "srcdoc" || a.Key == "formaction" {
				t.Fatalf("attribute %s in %q", a.Key, out)
			}
			if a.Key == "href" || a.Key == "src" {
				if _, ok := CleanURL(a.Val); !ok {
					t.Fatalf("%s=%q in %q", a.Key, a.Val, out)
				}
				if l := strings.ToLower(a.Val); strings.HasPrefix(l, "javascript:") || strings.HasPrefix(l, "data:text") || strings.HasPrefix(l, "//") {
					t.Fatalf("%s=%q in %q", a.Key, a.Val, out)
				}
			}
		}
	}
}

var fuzzSeeds = []string{
	`<p>Hi <b>there</b></p><script>alert(1)</script>`,
	`<a href="java&#x09;script:alert(1)">x</a><img src=x onerror=alert(1)>`,
	`<svg><style><img src=x onerror=alert(1)></style></svg>`,
	`<table><tr><td>1<td>2<tr><td>3</table><ul><li>a<li>b</ul>`,
	`<h1>A</h1><p>a</p><h2 id="b">B</h2><div><h3>c</h3></div>`,
	"# Title\n\n- a\n- b\n\n> q\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[x](/page/y) ![i](a.png)",
	`<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
	"<a href=\"\x00javascript:alert(1)\">x</a>",
}

// FuzzParse: whatever the input, Parse ends, writes only allowed markup,
// and reads its own output back to the same document.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d := Parse(in)
		out := d.HTML()
		checkSafe(t, out)
		if again := Parse(out).HTML(); again != out {
			t.Fatalf("not stable:\n%q\n%q", out, again)
		}
		d.Sections()
		d.Markdown()
	})
}

// FuzzMarkdown: Markdown, whatever it holds, becomes safe HTML, and a
// document written as Markdown (a handout) reads back safely.
func FuzzMarkdown(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d := ParseMarkdown(in)
		checkSafe(t, d.HTML())
		checkSafe(t, ParseMarkdown(d.Markdown()).HTML())
	})
}
