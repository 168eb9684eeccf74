package core_test

import (
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/dice"
)

// A roll is stored and sent exactly as the engine made it (every field,
// the tree of every die), whatever the server reads of it; a stored
// message read back and sent again is the same bytes.
func TestRollResultKeepsTheEnginesBytes(t *testing.T) {
	_, raws, command, err := dice.NewSeededRoller(1).RollText("/r 4d6dl1 # stats")
	if err != nil || !command || len(raws) != 1 {
		t.Fatalf("rolling: %v %v %d", err, command, len(raws))
	}
	r := core.NewRollResult(raws[0])
	if r.Total == nil || r.Expression != "4d6dl1 # stats" || r.Formula != "4d6dl1" || r.Comment != "stats" || r.Error != "" || r.Text == "" {
		t.Fatalf("read %+v from %s", r, raws[0])
	}
	if b, _ := json.Marshal(r); string(b) != string(raws[0]) {
		t.Fatalf("sent %s, the engine made %s", b, raws[0])
	}
	m := &core.Message{ID: "m", Type: core.MessageRoll, Text: r.Text, Rolls: []core.RollResult{r}}
	stored, _ := json.Marshal(m)
	var back core.Message
	if err := json.Unmarshal(stored, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(&back)
	if string(again) != string(stored) || back.Rolls[0].Total == nil || *back.Rolls[0].Total != *r.Total {
		t.Fatalf("read back and sent again:\n%s\nwas\n%s", again, stored)
	}
}

// What is not a roll of the engine's shape keeps its bytes and reads as a
// roll without a total, so a message shows its text.
func TestRollResultOfAnotherShape(t *testing.T) {
	for _, raw := range []string{`5`, `null`, `"text"`, `{"total":"x","error":7}`, `[1,2]`} {
		r := core.NewRollResult(json.RawMessage(raw))
		if r.Total != nil || r.Error != "" || r.Expression != "" {
			t.Errorf("%s read as %+v", raw, r)
		}
		if b, _ := json.Marshal(r); string(b) != raw {
			t.Errorf("%s sent as %s", raw, b)
		}
		m := &core.Message{Type: core.MessageRoll, Text: "as written", Rolls: []core.RollResult{r}}
		if c := m.Content(); c != "as written" {
			t.Errorf("%s: content %v, want the text", raw, c)
		}
	}
}
