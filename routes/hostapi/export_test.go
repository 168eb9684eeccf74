package hostapi

import (
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/imports"
)

// asciiJSON puts an import's results in a response header: only ASCII
// may go there, and the names read back whole.
func TestAsciiJSONFitsAHeader(t *testing.T) {
	got := asciiJSON([]imports.Result{{Kind: "module", ID: "m", Name: "Drachenhöhle 🐉"}})
	for _, r := range got {
		if r >= 0x80 {
			t.Fatalf("non-ASCII in %q", got)
		}
	}
	var back []imports.Result
	if err := json.Unmarshal([]byte(got), &back); err != nil || back[0].Name != "Drachenhöhle 🐉" {
		t.Errorf("%q reads back as %+v %v", got, back, err)
	}
}
