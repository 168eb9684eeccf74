package systems

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
	"github.com/vttapp/companion/templates"
)

func TestModelMatchesJSON(t *testing.T) {
	now := time.Date(2025, 3, 4, 5, 6, 7, 890000000, time.FixedZone("x", 3600))
	full := &core.Entity{
		ID: "id", Kind: "creature", System: "tinyrpg", Name: "N", Slug: "n", Type: "t", Descr: "d", Notes: "no", Image: "i", Token: "tk", Icon: "ic",
		Data:       core.Object{"a": 1.0, "b": 1.5, "c": []any{1.0, "x", nil, map[string]any{"d": true}}, "e": json.Number("7"), "f": map[string]any{}},
		Attributes: core.Object{"x": 2.0}, Modifiers: []core.Modifier{{ID: "m", Enabled: true, Value: "+1"}}, Tags: []string{"a", "b"},
		Combatant: &core.Combatant{ID: "c1", Name: "C"}, Sources: []core.Source{{Name: "SRD", Page: 3}},
		AppVersion: "1", SystemVersion: "2", Created: now, Modified: now.Add(time.Second), Meta: map[string]any{"k": []any{}},
	}
	bare := &core.Entity{ID: "id2", Name: "Bare"}
	normalized := &core.Entity{ID: "id3", Name: "Norm", Kind: "hero", Data: core.Object{}}
	normalized.Normalize(now)
	for _, e := range []*core.Entity{full, bare, normalized} {
		want, err := scripting.PlainJSON(e)
		if err != nil {
			t.Fatal(err)
		}
		got, err := model(e)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(got)
		if string(wantJSON) != string(gotJSON) {
			t.Errorf("model differs from the JSON form:\n got %s\nwant %s", gotJSON, wantJSON)
		}
		if d, ok := got["data"].(map[string]any); ok && d["a"] != nil {
			if _, isInt := d["a"].(int64); !isInt {
				t.Errorf("integers must be int64, got %T", d["a"])
			}
		}
	}
}

// pageModel marks nulls while it builds: it must be exactly what
// MarkNulls(model(e)) gives, nested nulls included, and leave the entity
// untouched.
func TestPageModelIsTheMarkedModel(t *testing.T) {
	now := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	withNulls := &core.Entity{
		ID: "id", Kind: "creature", Name: "N", Slug: "n",
		Data:      core.Object{"a": nil, "b": []any{nil, 1.0, map[string]any{"c": nil}}, "d": map[string]any{"e": nil}, "f": json.Number("2")},
		Combatant: &core.Combatant{ID: "c1", Name: "C"}, Sources: []core.Source{{Name: "SRD"}},
		Created: now, Modified: now, Meta: map[string]any{"k": nil, "l": []any{nil}},
	}
	bare := &core.Entity{ID: "id2", Name: "Bare"}
	for _, e := range []*core.Entity{withNulls, bare} {
		before, _ := json.Marshal(e)
		want, err := model(e)
		if err != nil {
			t.Fatal(err)
		}
		want = templates.MarkNulls(want).(map[string]any)
		got, err := pageModel(e)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pageModel differs from MarkNulls(model):\n got %#v\nwant %#v", got, want)
		}
		if after, _ := json.Marshal(e); string(after) != string(before) {
			t.Errorf("pageModel changed the entity:\n%s\n%s", before, after)
		}
	}
}
