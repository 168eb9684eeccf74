package pagehtml

import (
	"strings"
	"testing"
	"time"
)

func TestParseKeepsTheAllowListOnly(t *testing.T) {
	cases := []struct{ in, want string }{
		{`<p>Hi <b>there</b></p>`, `<p>Hi <b>there</b></p>`},
		{`<script>alert(1)</script><p>ok</p>`, `<p>ok</p>`},
		{`<script/>alert(1)</script><p>ok</p>`, `<p>ok</p>`},
		{`<style>body{}</style><p style="color:red" onclick="x()">ok</p>`, `<p>ok</p>`},
		{`<iframe src="https://evil"></iframe>x`, `x`},
		{`<svg><a href="javascript:alert(1)">x</a><script>1</script></svg>y`, `y`},
		{`<a href="javascript:alert(1)">x</a>`, `<a>x</a>`},
		{`<a href="java&#x09;script:alert(1)">x</a>`, `<a>x</a>`},
		{"<a href=\" JAVASCRIPT:alert(1)\">x</a>", `<a>x</a>`},
		{`<a href="data:text/html,<script>">x</a>`, `<a>x</a>`},
		{`<a href="//evil.example/x">x</a>`, `<a>x</a>`},
		{`<a href="/monster/goblin" target="_top">g</a>`, `<a href="/monster/goblin">g</a>`},
		{`<img src="data:image/svg+xml,<svg onload=alert(1)>">`, ``},
		{`<img src="data:image/png;base64,AAAA" alt="a">`, `<img src="data:image/png;base64,AAAA" alt="a">`},
		{`<img src="heading.png" onerror="x()" class="size-cover">`, `<img src="heading.png" class="size-cover">`},
		{`<font color="red">old</font> <center>c</center>`, `old c`},
		{`<p id="x&quot;onmouseover" class="read bad&quot; <x>">t</p>`, `<p class="read">t</p>`},
		{`<!-- secret --><p>t</p>`, `<p>t</p>`},
		{`<form action="/x"><input name="a">text<button>b</button></form>`, `text`},
		{`<p>a<p>b`, `<p>a</p><p>b</p>`},
		{`<ul><li>a<li>b</ul>`, `<ul><li>a</li><li>b</li></ul>`},
		{`<table><tr><td>1<td>2<tr><td>3</table>`, `<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>`},
		{`<p>&lt;script&gt; &amp; "q"</p>`, `<p>&lt;script&gt; &amp; &#34;q&#34;</p>`},
		{`</div></p><p>x</b></p>`, `<p>x</p>`},
		{`<td colspan="2" rowspan="x">c</td>`, `<td colspan="2">c</td>`},
		{`<details open><summary>s</summary>d</details>`, `<details open><summary>s</summary>d</details>`},
		{`<base href="https://evil/"><meta http-equiv="refresh" content="0;url=x"><link rel=stylesheet href=x>t`, `t`},
		{`<math><mi xlink:href="javascript:1">x</mi></math>t`, `t`},
	}
	for _, c := range cases {
		if got := Parse(c.in).HTML(); got != c.want {
			t.Errorf("Parse(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestParseGivesHeadingsIDs(t *testing.T) {
	d := Parse(`<h1 id="intro">Intro</h1><h2>The Cave</h2><h2>The Cave</h2><h3 id="intro">Dup</h3><h2>Échos</h2>`)
	got := d.Sections()
	want := []Section{{"intro", "Intro", 1}, {"the-cave", "The Cave", 2}, {"the-cave-2", "The Cave", 2}, {"dup", "Dup", 3}, {"chos", "Échos", 2}}
	if len(got) != len(want) {
		t.Fatalf("sections %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("section %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestOnlyKeepsTheChosenSectionsWithTheirSubsections(t *testing.T) {
	d := Parse(`<p>GM intro</p><h1 id="a">A</h1><p>a</p><h2 id="a1">A1</h2><p>a1</p><h1 id="b">B</h1><p>secret b</p><h2 id="b1">B1</h2><p>b1</p>`)
	if got := d.Only([]string{"a"}).HTML(); got != `<h1 id="a">A</h1><p>a</p><h2 id="a1">A1</h2><p>a1</p>` {
		t.Errorf("only a: %s", got)
	}
	if got := d.Only([]string{"b1"}).HTML(); got != `<h2 id="b1">B1</h2><p>b1</p>` {
		t.Errorf("only b1: %s", got)
	}
	if got := d.Only([]string{"a1", "b1"}).HTML(); got != `<h2 id="a1">A1</h2><p>a1</p><h2 id="b1">B1</h2><p>b1</p>` {
		t.Errorf("only a1 b1: %s", got)
	}
	if got := d.Only([]string{"nope"}).HTML(); got != "" {
		t.Errorf("only nope: %q", got)
	}
	// Wrapped in one container: the sections are its children's.
	w := Parse(`<div class="page"><h1>A</h1><p>a</p><h1>B</h1><p>b</p></div>`)
	if got := w.Only([]string{"b"}).HTML(); got != `<div class="page"><h1 id="b">B</h1><p>b</p></div>` {
		t.Errorf("wrapped: %s", got)
	}
	// Only never changes the document it was cut from.
	cut := d.Only([]string{"a"})
	cut.RewriteLinks(func(string, string) Link { return Link{Unwrap: true} })
	cut.Nodes[0].SetAttr("id", "changed")
	if d.Sections()[0].ID != "a" {
		t.Error("Only shares nodes with the original")
	}
}

func TestRewriteLinksAndImages(t *testing.T) {
	d := Parse(`<p><a href="/page/x">X</a> <a href="/map/m">M</a> <a href="#top">top</a> <img src="a.png" alt="A"> <img src="https://far/b.png"></p>`)
	d.RewriteLinks(func(href, text string) Link {
		switch href {
		case "/page/x":
			return Link{Href: "/module/m/page/x", Attrs: []Attr{{"data-page", "P1"}}}
		case "/map/m":
			return Link{Unwrap: true}
		}
		return Link{Href: href}
	})
	d.RewriteImages(func(src string) (string, bool) {
		if src == "a.png" {
			return "/modules/M/a.png", true
		}
		return "", false
	})
	want := `<p><a href="/module/m/page/x" data-page="P1">X</a> M <a href="#top">top</a> <img src="/modules/M/a.png" alt="A"> </p>`
	if got := d.HTML(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// A rewrite to an unsafe target unwraps the link.
	d.RewriteLinks(func(string, string) Link { return Link{Href: "javascript:x"} })
	if strings.Contains(d.HTML(), "<a") {
		t.Errorf("unsafe rewrite kept: %s", d.HTML())
	}
}

// Pathological input costs time in proportion to its size: nesting is
// bounded and no step searches more than MaxDepth open elements.
func TestParseBoundsNesting(t *testing.T) {
	deep := strings.Repeat("<div><b><table><tr><td>", 50000) + "x"
	start := time.Now()
	out := Parse(deep).HTML()
	if strings.Count(out, "<div>") > MaxDepth {
		t.Errorf("%d divs kept", strings.Count(out, "<div>"))
	}
	if !strings.Contains(out, "x") {
		t.Error("the text was lost")
	}
	misnested := strings.Repeat("<b><i></b></i>", 100000)
	Parse(misnested)
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d) // a quadratic reader takes hours here
	}
}

// Text cut by many dropped tags is joined in time proportional to it.
func TestParseJoinsCutTextOnce(t *testing.T) {
	start := time.Now()
	in := strings.Repeat("ab<x>", 400000)
	out := Parse(in).HTML()
	if out != strings.Repeat("ab", 400000) {
		t.Errorf("got %d bytes", len(out))
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}
