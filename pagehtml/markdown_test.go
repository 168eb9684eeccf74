package pagehtml

import (
	"strings"
	"testing"
	"time"
)

func TestMarkdownToHTML(t *testing.T) {
	cases := []struct{ in, want string }{
		{"# Title\n\nSome *soft* and **bold** text.", `<h1 id="title">Title</h1><p>Some <em>soft</em> and <strong>bold</strong> text.</p>`},
		{"Setext\n===\n\nTwo\n---", `<h1 id="setext">Setext</h1><h2 id="two">Two</h2>`},
		{"- a\n- b\n  - b1\n- c", "<ul><li>a</li><li>b\n<ul><li>b1</li></ul></li><li>c</li></ul>"},
		{"3. three\n4. four", `<ol start="3"><li>three</li><li>four</li></ol>`},
		{"> quoted\n> more\n\nafter", "<blockquote><p>quoted\nmore</p></blockquote><p>after</p>"},
		{"| d6 | Find |\n|:--|---:|\n| 1 | Bat |\n| 2 | x \\| y |", `<table><thead><tr><th align="left">d6</th><th align="right">Find</th></tr></thead><tbody><tr><td align="left">1</td><td align="right">Bat</td></tr><tr><td align="left">2</td><td align="right">x | y</td></tr></tbody></table>`},
		{"```\n<b>code</b>\n```", "<pre><code>&lt;b&gt;code&lt;/b&gt;</code></pre>"},
		{"See [the goblin](/monster/goblin \"Gob\") and ![map](cave.png).", `<p>See <a href="/monster/goblin" title="Gob">the goblin</a> and <img src="cave.png" alt="map">.</p>`},
		{"<script>alert(1)</script> <b>raw</b>", `<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;raw&lt;/b&gt;</p>`},
		{"[x](javascript:alert(1))", `<p><a>x</a></p>`},
		{"snake_case_name and `a*b*c`", `<p>snake_case_name and <code>a*b*c</code></p>`},
		{"line one  \nline two\\\nthree", "<p>line one<br>\nline two<br>\nthree</p>"},
		{"~~gone~~ \\*literal\\*", `<p><del>gone</del> *literal*</p>`},
		{"<https://example.org/x>", `<p><a href="https://example.org/x">https://example.org/x</a></p>`},
		{"***", `<hr>`},
		{"    indented\n    code", "<pre><code>indented\ncode</code></pre>"},
	}
	for _, c := range cases {
		got := strings.ReplaceAll(strings.TrimSpace(ParseMarkdown(c.in).HTML()), ">\n<", "><")
		if got != c.want {
			t.Errorf("ParseMarkdown(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// Text full of unclosed marks costs time in proportion to its length.
func TestMarkdownBoundsItsSearches(t *testing.T) {
	start := time.Now()
	for _, s := range []string{strings.Repeat("*a ", 200000), strings.Repeat("[a", 200000), strings.Repeat("`a", 200000),
		strings.Repeat("> ", 100000) + "x", strings.Repeat("- ", 100000) + "x", strings.Repeat("_a_", 200000)} {
		ParseMarkdown(s)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestDocToMarkdown(t *testing.T) {
	d := Parse(`<h2 id="x">The <em>Cave</em></h2><p>A <strong>dark</strong> place, see <a href="/monster/goblin">goblins</a>.<br>Next line with *stars* and [brackets].</p>` +
		`<blockquote><p>Read this aloud.</p></blockquote><ul><li>one</li><li>two <b>bold</b></li></ul><ol start="2"><li>b</li></ol>` +
		`<p>1. not a list</p><table><tr><th>d6</th><th>Find</th></tr><tr><td>1</td><td>a|b</td></tr></table><p><img src="/modules/M/a.png" alt="A map"></p><pre>x  y
z</pre>`)
	want := "## The _Cave_\n\nA **dark** place, see [goblins](/monster/goblin).\nNext line with \\*stars\\* and \\[brackets\\].\n\n> Read this aloud.\n>\n" +
		"- one\n- two **bold**\n\n2. b\n\n1\\. not a list\n\n| d6 | Find |\n| --- | --- |\n| 1 | a\\\\|b |\n\n![A map](/modules/M/a.png)\n\n```\nx  y\nz\n```\n"
	if got := d.Markdown(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// What it writes reads back as the same structure.
	back := ParseMarkdown(d.Markdown())
	for _, s := range []string{"<em>Cave</em>", "<strong>dark</strong>", `<a href="/monster/goblin">goblins</a>`, "<blockquote>", "<li>two <strong>bold</strong></li>", `<img src="/modules/M/a.png" alt="A map">`, "<td>1</td>"} {
		if !strings.Contains(back.HTML(), s) {
			t.Errorf("the Markdown reads back without %s:\n%s", s, back.HTML())
		}
	}
}
