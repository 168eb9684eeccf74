package templates_test

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vttapp/companion/templates"
)

func set(files map[string]string) *templates.Set {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return templates.NewSet("test", fsys, "templates/")
}

func render(t *testing.T, files map[string]string, name string, ctx map[string]any) (string, error) {
	t.Helper()
	tpl, err := set(files).Load(name)
	if err != nil {
		return "", err
	}
	out, err := tpl.Render(ctx)
	return string(out), err
}

func TestFilters(t *testing.T) {
	view := map[string]any{
		"bonus": int64(2), "malus": int64(-1), "score": int64(14), "level": int64(3), "cr": 0.25, "xp": int64(1800),
		"langs": []any{"Common", "Elvish", "Goblin"}, "desc": "A <small> goblin.\nSneaky.\n\n**Very** _mean_.",
		"none": templates.Null,
	}
	cases := map[string]string{
		"{{ view.bonus|signed }} {{ view.malus|signed }}": "+2 -1",
		"{{ view.score|modifier }}":                       "+2",
		"{{ view.level|ordinal }}":                        "3rd",
		"{{ view.cr|fraction }}":                          "1/4",
		"{{ view.xp|number }}":                            "1,800",
		"{{ view.langs|join_and }}":                       "Common, Elvish and Goblin",
		`{{ view.langs|join_and:" or " }}`:                "Common, Elvish or Goblin",
		"{{ view.desc|markdown }}":                        "<p>A &lt;small&gt; goblin.<br>Sneaky.</p><p><strong>Very</strong> <em>mean</em>.</p>",
		"[{{ view.none|signed }}][{{ view.none }}]":       "[][]",
		"{{ view.missing|default:\"-\" }}":                "-",
		"{% if view.missing %}yes{% else %}no{% endif %}": "no",
		"{% if view.none %}yes{% else %}no{% endif %}":    "no",
		"{{ \"<b>\"|safe }}{{ view.level|safe }}":         "<b>3",
	}
	for src, want := range cases {
		got, err := render(t, map[string]string{"t.html": src}, "t.html", map[string]any{"view": view})
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got != want {
			t.Errorf("%s\n got %q\nwant %q", src, got, want)
		}
	}
	if _, err := render(t, map[string]string{"t.html": "x\n{{ view.langs|signed }}"}, "t.html", map[string]any{"view": view}); err == nil || !strings.HasPrefix(err.Error(), "templates/t.html:2: signed expects a number") {
		t.Errorf("a filter on the wrong type: %v", err)
	}
}

func TestStrictVariables(t *testing.T) {
	files := map[string]string{
		"page.html":           "<h1>{{ entity.name }}</h1>\n{% include \"partials/stats.html\" %}\n",
		"partials/stats.html": "<ul>\n{% for a in view.actions %}<li>{{ a.name }}: {{ a.desc }}</li>{% endfor %}\n</ul>",
	}
	ctx := func(actions ...any) map[string]any {
		return map[string]any{"entity": map[string]any{"name": "Orc"}, "view": map[string]any{"actions": actions}}
	}
	got, err := render(t, files, "page.html", ctx(map[string]any{"name": "Axe", "desc": "Hit"}))
	if err != nil || !strings.Contains(got, "<li>Axe: Hit</li>") {
		t.Fatalf("%q %v", got, err)
	}
	_, err = render(t, files, "page.html", ctx(map[string]any{"name": "Axe"}))
	var te *templates.Error
	if !errors.As(err, &te) || te.File != "templates/partials/stats.html" || te.Line != 2 || !strings.Contains(te.Message, "prints a.desc, which is missing") {
		t.Fatalf("missing variable in a partial: %#v %v", err, err)
	}
	_, err = render(t, files, "page.html", map[string]any{"view": map[string]any{}})
	if err == nil || err.Error() != `templates/page.html:1: the template prints entity.name, which is missing (check the name, or write {{ entity.name|default:"" }} when it is optional)` {
		t.Fatalf("missing top-level variable: %v", err)
	}
	// A present null is not missing.
	got, err = render(t, files, "page.html", ctx(map[string]any{"name": "Axe", "desc": templates.Null}))
	if err != nil || !strings.Contains(got, "<li>Axe: </li>") {
		t.Fatalf("null: %q %v", got, err)
	}
}

func TestAutoescape(t *testing.T) {
	got, err := render(t, map[string]string{"t.html": "{{ v }}|{{ v|safe }}"}, "t.html", map[string]any{"v": `<script>"x"&</script>`})
	if err != nil || got != `&lt;script&gt;&quot;x&quot;&amp;&lt;/script&gt;|<script>"x"&</script>` {
		t.Fatalf("%q %v", got, err)
	}
}

func TestTemplateErrorsNameFileAndLine(t *testing.T) {
	for src, want := range map[string]string{
		"<p>\n{% if x %}\n</p>":            "templates/t.html:",
		"<p>\n\n{{ x|nosuchfilter }}":      "templates/t.html:3:",
		"line\n{% for %}":                  "templates/t.html",
		"{% include \"../escape.html\" %}": "templates/t.html:1:",
	} {
		_, err := render(t, map[string]string{"t.html": src}, "t.html", map[string]any{"x": 1})
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want prefix %q", src, err, want)
		}
	}
	if _, err := set(map[string]string{}).Load("gone.html"); err == nil || !strings.Contains(err.Error(), "gone.html") {
		t.Errorf("a missing template: %v", err)
	}
}

func TestValuesMarksNulls(t *testing.T) {
	v := templates.Values(map[string]any{"a": nil, "b": []any{nil, "x"}, "c": map[string]any{"d": nil}}).(map[string]any)
	if v["a"] != templates.Null || v["b"].([]any)[0] != templates.Null || v["c"].(map[string]any)["d"] != templates.Null {
		t.Fatalf("%#v", v)
	}
}

func TestMarkNullsMarksInPlace(t *testing.T) {
	inner := map[string]any{"d": nil, "e": 1}
	list := []any{nil, "x", []any{nil}}
	m := map[string]any{"a": nil, "b": list, "c": inner, "s": "text"}
	v := templates.MarkNulls(m).(map[string]any)
	if m["a"] != templates.Null || list[0] != templates.Null || list[2].([]any)[0] != templates.Null ||
		inner["d"] != templates.Null || inner["e"] != 1 || m["s"] != "text" {
		t.Fatalf("%#v", m)
	}
	if v["c"].(map[string]any)["d"] != templates.Null {
		t.Fatalf("the result is not the marked value: %#v", v)
	}
	if templates.MarkNulls(nil) != templates.Null {
		t.Fatal("a null itself is not marked")
	}
}

func TestPage(t *testing.T) {
	page := string(templates.Page(templates.PageData{Title: "Orc & <Co>", System: "D&D", Kind: "monster",
		CSS: []string{"body{}", "p::after{content:'</style><script>'}"}, Body: []byte("<article>x</article>")}))
	for _, want := range []string{"<!DOCTYPE html>", "<title>Orc &amp; &lt;Co&gt; · D&amp;D</title>", "<style>\nbody{}\n", `<\/style><script>`,
		`<body class="companion-reference kind-monster">`, "<main class=\"reference\">\n<article>x</article>\n</main>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	if strings.Count(page, "</style>") != 1 {
		t.Errorf("the CSS closed the style element:\n%s", page)
	}
}
