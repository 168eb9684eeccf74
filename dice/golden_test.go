package dice

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenMessages pin the stored form of chat messages: text and the JSON
// of every roll (seed 1). Run `go test -run Golden -update` after an
// intended change and review the diff.
var goldenMessages = map[string]string{
	"command":  "/r 4d6dl1 # strength",
	"inline":   "I attack [[1d20+5]] and deal [[2d6 [slashing] + 1d6 [fire]]] damage.",
	"explode":  "/roll 5d6!!p + 3d6!>=5",
	"reroll":   "/r 4d6r<3kh3 + 2d20ro1",
	"targets":  "/r 10d10>=7f<=2cs=10",
	"groups":   "/r {1d20+5, 1d20+3}kh1 + {4d6+2d8}kh3",
	"fate":     "/r 4dF+2 + (1d4)d6min2sd",
	"errors":   "Broken: [[1d0]] [[2d6+3)]] [[1d1!]] but [[d%]] works",
	"plain":    "No dice here, just [brackets] and /r-words.",
	"unicode":  "🐉 [[1d20]] é",
	"division": "/r floor(1d20/3) + round(7/2) + 1d6/4",
}

func TestGoldenMessages(t *testing.T) {
	for name, text := range goldenMessages {
		stored, rolls, _, err := NewSeededRoller(1).RollText(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got bytes.Buffer
		enc := json.NewEncoder(&got)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Text   string            `json:"text"`
			Stored string            `json:"stored"`
			Rolls  []json.RawMessage `json:"rolls"`
		}{text, stored, rolls}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", name+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run go test -run Golden -update to create it)", name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: stored form changed\n got: %s\nwant: %s", name, got.Bytes(), want)
		}
	}
}
