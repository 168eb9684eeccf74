package systems

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

const authoringGuide = "../docs/system-authoring.md"

var docFile = regexp.MustCompile("(?s)<!-- file: ([^ ]+) -->\n```[a-z]*\n(.*?)```\n")

// TestAuthoringGuideShowsTheFixture keeps the complete example of
// docs/system-authoring.md identical to testdata/tinyrpg, and its quoted
// outputs identical to what the runtime renders.
func TestAuthoringGuideShowsTheFixture(t *testing.T) {
	doc, err := os.ReadFile(authoringGuide)
	if err != nil {
		t.Skipf("no guide: %v", err)
	}
	matches := docFile.FindAllStringSubmatch(string(doc), -1)
	if len(matches) < 7 {
		t.Fatalf("the guide lists %d files of the example; want the whole system", len(matches))
	}
	for _, m := range matches {
		want, err := os.ReadFile(filepath.Join("testdata", "tinyrpg", m[1]))
		if err != nil {
			t.Errorf("the guide shows %s, which the fixture lacks", m[1])
			continue
		}
		if m[2] != string(want) {
			t.Errorf("the guide's %s differs from testdata/tinyrpg/%s:\n%s", m[1], m[1], unifiedDiff("fixture", "guide", string(want), m[2]))
		}
	}

	// The quoted view.json and page body are what the runtime renders.
	s := loadTiny(t)
	var e core.Entity
	caseFile := parseCase([]byte(matches[len(matches)-1][2]))
	src, _ := caseFile.get("entity.json")
	if err := json.Unmarshal(src, &e); err != nil {
		t.Fatal(err)
	}
	e.Normalize(goldenTime)
	view, err := s.ViewValue(context.Background(), &e)
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(doc), "its `view.json` reads:\n\n```json\n")
	quoted, _, _ := strings.Cut(after, "```")
	var quotedView map[string]any
	if err := json.Unmarshal([]byte(quoted), &quotedView); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(view)
	want, _ := json.Marshal(quotedView)
	if !reflect.DeepEqual(string(got), string(want)) {
		t.Errorf("the guide's view.json differs from the rendered view:\n got %s\nwant %s", got, want)
	}
	body, err := s.RenderBody(context.Background(), &e)
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ = strings.Cut(string(doc), "and the body of its `page.html`:\n\n```html\n")
	quotedBody, _, _ := strings.Cut(after, "```")
	if quotedBody != string(body) {
		t.Errorf("the guide's page body differs:\n%s", unifiedDiff("rendered", "guide", string(body), quotedBody))
	}
}
