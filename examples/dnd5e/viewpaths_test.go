package dnd5e

import (
	"bytes"
	"context"
	"testing"

	"github.com/vttapp/companion/core"
)

// A view is made two ways: for its JSON alone (View: written straight from
// the Lua table, its template value decoded from the JSON when a page
// first needs it) or for a page (RenderPage: the value converted from the
// Lua table as well). Both must give the same page and the same JSON, for
// every SRD record and every sample entry.
func TestViewJSONFirstAndPageFirstAgree(t *testing.T) {
	s := loadSystem(t)
	ctx := context.Background()
	var all []*core.Entity
	for _, f := range srdFiles {
		all = append(all, srdEntities(t, f)...)
	}
	for i, e := range all {
		fresh := *e
		fresh.Revision = 0 // never cached: the page converts the view itself
		page, err := s.RenderPage(ctx, &fresh)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		view, err := s.View(ctx, &fresh)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		cached := *e
		cached.ID = e.ID + "-cached"
		cached.Revision = int64(i + 1)
		cachedView, err := s.View(ctx, &cached) // caches the JSON only
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		cachedPage, err := s.RenderPage(ctx, &cached) // decodes it for the template
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if !bytes.Equal(page, cachedPage) {
			t.Fatalf("%s: the page differs when its view was cached by View first", e.Name)
		}
		want := bytes.Replace(view, []byte(`"id":"`+e.ID+`"`), []byte(`"id":"`+cached.ID+`"`), 1)
		if !bytes.Equal(want, cachedView) {
			t.Fatalf("%s: views differ:\n%s\n%s", e.Name, view, cachedView)
		}
	}
}
