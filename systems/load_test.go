package systems

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

func loadTiny(t testing.TB) *System {
	t.Helper()
	s, err := Load(os.DirFS("testdata/tinyrpg"), Options{})
	if err != nil {
		t.Fatalf("load tinyrpg: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

func goblin() *core.Entity {
	return &core.Entity{
		ID: "e1", Kind: "creature", Name: "Goblin", Slug: "goblin", Revision: 1,
		Data: core.Object{"level": 2.0, "type": "humanoid", "hp": 7.0, "hit_dice": "2d6",
			"speed": map[string]any{"walk": 30.0, "swim": 10.0}, "str": 8.0, "dex": 14.0, "cr": 0.25, "xp": 1800.0,
			"spells": []any{"fire-bolt"}},
	}
}

func TestLoadTinyDeclarations(t *testing.T) {
	s := loadTiny(t)
	if s.ID() != "tinyrpg" || s.Name() != "Tiny RPG" || s.Version() != "1.2.0" {
		t.Fatalf("manifest: %s %s %s", s.ID(), s.Name(), s.Version())
	}
	kinds := s.Kinds()
	if len(kinds) != 2 || kinds[0].Name != "creature" || kinds[1].Name != "hero" {
		t.Fatalf("kinds in declaration order: %+v", kinds)
	}
	k, ok := s.KindByCollection("heroes")
	if !ok || k.Name != "hero" || !k.Unique || k.Title != "Hero" || k.CollectionTitle != "Heroes" || k.Template != "hero.html" {
		t.Fatalf("hero defaults: %+v", k)
	}
	c, _ := s.Kind("creature")
	if strings.Join(c.Filters, ",") != "level,type" || strings.Join(c.Ranges, ",") != "hp" || !c.HasReferences {
		t.Fatalf("creature: %+v", c)
	}
	if !s.IsUnique("hero") || s.IsUnique("creature") || s.IsUnique("nope") {
		t.Fatal("IsUnique")
	}
	if s.Sample() == nil {
		t.Fatal("sample folder not found")
	}
	if _, err := s.Assets().Open("icon.svg"); err != nil {
		t.Fatalf("assets: %v", err)
	}
}

func TestDocument(t *testing.T) {
	s := loadTiny(t)
	body, etag := s.Document()
	if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
		t.Fatalf("etag %q", etag)
	}
	var doc struct {
		ID          string         `json:"id"`
		Name        string         `json:"name"`
		Config      map[string]any `json:"config"`
		Settings    map[string]any `json:"settings"`
		Definitions struct {
			Entities map[string]map[string]any `json:"entities"`
			Types    map[string][]string       `json:"types"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ID != "tinyrpg" || doc.Config["currency"] != "gp" || doc.Settings["showHidden"] != false {
		t.Fatalf("doc: %s", body)
	}
	if doc.Definitions.Entities["creature"]["collection"] != "creatures" || len(doc.Definitions.Types["sizes"]) != 3 {
		t.Fatalf("definitions: %s", body)
	}
	again := loadTiny(t)
	if _, etag2 := again.Document(); etag2 != etag {
		t.Fatalf("the same system gives another etag: %s vs %s", etag2, etag)
	}
}

func TestRows(t *testing.T) {
	s := loadTiny(t)
	ctx := context.Background()
	row, err := s.ListRow(ctx, goblin(), false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(row), `{"id":"e1","kind":"creature","name":"Goblin","slug":"goblin","level":2,"type":"humanoid"}`; got != want {
		t.Fatalf("list row\n got %s\nwant %s", got, want)
	}
	basic, err := s.ListRow(ctx, goblin(), true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(basic), `{"id":"e1","kind":"creature","name":"Goblin","slug":"goblin"}`; got != want {
		t.Fatalf("basic row %s", got)
	}
	if _, err := s.ListRow(ctx, &core.Entity{ID: "x", Kind: "dragon", Name: "X"}, false); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("unknown kind: %v", err)
	}
}

func TestView(t *testing.T) {
	s := loadTiny(t)
	data, err := s.View(context.Background(), goblin())
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"level": "2nd level", "hp": "7 (2d6, avg 7)", "speed": "30 ft., swim 10 ft.", "cr": "1/4", "xp": "1,800",
		"id": "e1", "kind": "creature", "name": "Goblin", "slug": "goblin",
	}
	for k, w := range want {
		if v[k] != w {
			t.Errorf("view.%s = %v, want %v", k, v[k], w)
		}
	}
	if tags, ok := v["tags"].([]any); !ok || len(tags) != 0 {
		t.Errorf("companion.array() must give [], got %#v", v["tags"])
	}
	refs, err := s.References(context.Background(), goblin())
	if err != nil || len(refs) != 1 || refs[0] != "spell.fire-bolt" {
		t.Fatalf("references: %v %v", refs, err)
	}
}

func TestRenderPage(t *testing.T) {
	s := loadTiny(t)
	e := goblin()
	e.Name = "Goblin <Boss>"
	e.Descr = "Small and **mean**."
	page, err := s.RenderPage(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{"<title>Goblin &lt;Boss&gt; · Tiny RPG</title>", "<h1>Goblin &lt;Boss&gt;</h1>", "font-family: serif",
		"<li>DEX 14 (+2)</li>", "<p>Small and <strong>mean</strong>.</p>", "CR 1/4 (1,800 XP)"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q:\n%s", want, html)
		}
	}
}
