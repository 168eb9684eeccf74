package dice

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type storedRoll struct {
	Expression string   `json:"expression"`
	Formula    string   `json:"formula"`
	Total      *float64 `json:"total"`
	Text       string   `json:"text"`
	Label      string   `json:"label"`
	Comment    string   `json:"comment"`
	Error      string   `json:"error"`
	Position   int      `json:"position"`
	Limit      string   `json:"limit"`
	Start      int      `json:"start"`
	End        int      `json:"end"`
	Tree       *Node    `json:"tree"`
}

func decodeRolls(t *testing.T, rolls []json.RawMessage) []storedRoll {
	t.Helper()
	out := make([]storedRoll, len(rolls))
	for i, r := range rolls {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			t.Fatalf("roll %d is not JSON: %v: %s", i, err, r)
		}
	}
	return out
}

// slice16 cuts s by UTF-16 offsets, as a browser's String.slice does.
func slice16(s string, start, end int) string {
	var b strings.Builder
	i := 0
	for _, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if i >= start && i+w <= end {
			b.WriteRune(r)
		}
		i += w
	}
	return b.String()
}

func TestRollTextCommand(t *testing.T) {
	for _, text := range []string{"/roll 4d6dl1", "/r 4d6dl1", "  /R   4d6dl1  ", "/ROLL\t4d6dl1"} {
		r := NewRollerWithSource(NewSequence(6, 4, 3, 2))
		stored, rolls, command, err := r.RollText(text)
		if err != nil || !command {
			t.Fatalf("RollText(%q): command %v, %v", text, command, err)
		}
		if stored != "4d6dl1: [6, 4, 3, 2d] = 13" {
			t.Errorf("RollText(%q) stored %q", text, stored)
		}
		got := decodeRolls(t, rolls)
		if len(got) != 1 || *got[0].Total != 13 || got[0].Expression != "4d6dl1" || got[0].Formula != "4d6dl1" ||
			got[0].Text != stored || got[0].Start != 0 || got[0].End != len(stored) || got[0].Tree == nil {
			t.Errorf("RollText(%q) rolls %s", text, rolls)
		}
	}
}

func TestRollTextCommandWithComment(t *testing.T) {
	r := NewRollerWithSource(NewSequence(17))
	stored, rolls, _, err := r.RollText("/r 1d20+5 # attack")
	if err != nil {
		t.Fatal(err)
	}
	got := decodeRolls(t, rolls)
	if stored != "1d20+5: [17]+5 = 22 # attack" || got[0].Comment != "attack" || got[0].Expression != "1d20+5 # attack" {
		t.Errorf("stored %q rolls %s", stored, rolls)
	}
}

func TestRollTextInline(t *testing.T) {
	r := NewRollerWithSource(NewSequence(17, 3, 4))
	text := "I attack [[1d20+5]] and deal [[2d6 [fire]]] damage."
	stored, rolls, _, err := r.RollText(text)
	if err != nil {
		t.Fatal(err)
	}
	if stored != "I attack 22 and deal 7 damage." {
		t.Errorf("stored %q", stored)
	}
	got := decodeRolls(t, rolls)
	if len(got) != 2 {
		t.Fatalf("%d rolls, want 2", len(got))
	}
	if got[0].Expression != "1d20+5" || *got[0].Total != 22 || slice16(stored, got[0].Start, got[0].End) != "22" {
		t.Errorf("first roll %+v", got[0])
	}
	if got[1].Expression != "2d6 [fire]" || got[1].Label != "fire" || *got[1].Total != 7 ||
		slice16(stored, got[1].Start, got[1].End) != "7" {
		t.Errorf("second roll %+v", got[1])
	}
}

// Offsets are UTF-16 code units, so a browser can slice the stored text.
func TestRollTextOffsetsAreUTF16(t *testing.T) {
	r := NewRollerWithSource(NewSequence(5, 2))
	stored, rolls, _, err := r.RollText("🐉 breathes: [[1d6]] é [[1d0]]!")
	if err != nil {
		t.Fatal(err)
	}
	if stored != "🐉 breathes: 5 é [[1d0]]!" {
		t.Errorf("stored %q", stored)
	}
	got := decodeRolls(t, rolls)
	if s := slice16(stored, got[0].Start, got[0].End); s != "5" {
		t.Errorf("first roll spans %q (%d..%d)", s, got[0].Start, got[0].End)
	}
	if s := slice16(stored, got[1].Start, got[1].End); s != "[[1d0]]" {
		t.Errorf("failed roll spans %q (%d..%d)", s, got[1].Start, got[1].End)
	}
}

// A bad roll keeps its text as written and carries its error.
func TestRollTextBadRollKeepsText(t *testing.T) {
	r := NewRollerWithSource(NewSequence(4))
	stored, rolls, _, err := r.RollText("Hit [[1d0]] then [[1d6]] and [[2d6+3)]]")
	if err != nil {
		t.Fatal(err)
	}
	if stored != "Hit [[1d0]] then 4 and [[2d6+3)]]" {
		t.Errorf("stored %q", stored)
	}
	got := decodeRolls(t, rolls)
	if got[0].Error != `0 sides at 1 in "1d0": a die needs at least one side` || got[0].Position != 1 || got[0].Total != nil {
		t.Errorf("first roll %+v", got[0])
	}
	if got[2].Error != `unexpected ')' at 6 in "2d6+3)"` || got[2].Position != 6 {
		t.Errorf("third roll %+v", got[2])
	}

	stored, rolls, _, err = r.RollText("/roll 1d1!")
	if err != nil || stored != "/roll 1d1!" {
		t.Fatalf("bad command: stored %q err %v", stored, err)
	}
	got = decodeRolls(t, rolls)
	if len(got) != 1 || !strings.HasPrefix(got[0].Error, "endless explosion at 4") ||
		slice16(stored, got[0].Start, got[0].End) != "1d1!" {
		t.Errorf("bad command roll %+v", got[0])
	}
}

func TestRollTextPlain(t *testing.T) {
	r := NewSeededRoller(1)
	for _, text := range []string{
		"Hello there", "a [single] bracket", "unclosed [[1d6", "/rules are /r-less", "/rollover", "2d6 is not rolled",
	} {
		stored, rolls, command, err := r.RollText(text)
		if err != nil || stored != text || rolls != nil || command {
			t.Errorf("RollText(%q) = %q, %s, command %v, %v; want it unchanged with no rolls", text, stored, rolls, command, err)
		}
	}
}

// Only a message that is a /roll or /r command is one: inline rolls, a
// command word inside the text, or one followed by anything but white
// space are chat.
func TestRollTextTellsACommand(t *testing.T) {
	r := NewSeededRoller(1)
	for text, want := range map[string]bool{
		"/roll 1d20": true, "/r 1d0": true, "\t/R 2d6 # fire": true, "/r\n1d4": true,
		"hit [[1d20]]": false, "say /roll 1d20": false, "/rollover [[1d6]]": false, "/r\u00a0[[1d6]]": false,
	} {
		if _, _, command, _ := r.RollText(text); command != want {
			t.Errorf("RollText(%q): command %v, want %v", text, command, want)
		}
	}
}

// err only when nothing would be left to store.
func TestRollTextNothingLeft(t *testing.T) {
	r := NewSeededRoller(1)
	for _, text := range []string{"", "   ", "/roll", "/r   ", "/roll \n"} {
		stored, rolls, _, err := r.RollText(text)
		var de *Error
		if !errors.As(err, &de) || stored != "" || rolls != nil {
			t.Errorf("RollText(%q) = %q, %s, %v; want an *Error", text, stored, rolls, err)
		}
	}
}

func TestRollTextRollsPerMessageLimit(t *testing.T) {
	r := NewRollerWithSource(NewSequence(1))
	text := strings.Repeat("[[1d6]] ", MaxRollsPerText) + "then [[1d8]] and [[1d0]] [[2d6]]"
	stored, rolls, _, err := r.RollText(text)
	if err != nil {
		t.Fatal(err)
	}
	got := decodeRolls(t, rolls)
	if len(got) != MaxRollsPerText+1 || got[MaxRollsPerText-1].Error != "" {
		t.Fatalf("%d rolls, want %d rolled and one error", len(got), MaxRollsPerText)
	}
	last := got[MaxRollsPerText]
	if last.Limit != LimitRollsPerText || last.Expression != "1d8" ||
		last.Error != "too many rolls in one message: the limit is 100; the rest of the message is left as written" {
		t.Errorf("roll over the limit: %+v", last)
	}
	want := strings.Repeat("1 ", MaxRollsPerText) + "then [[1d8]] and [[1d0]] [[2d6]]"
	if stored != want {
		t.Errorf("stored %q", stored)
	}
	if s := slice16(stored, last.Start, last.End); s != "[[1d8]]" {
		t.Errorf("error spans %q", s)
	}
}

func TestResultJSONShape(t *testing.T) {
	r := NewRollerWithSource(NewSequence(6, 4, 3, 2, 6, 1))
	res, err := r.Roll("4d6dl1 + 1d6! [bonus]")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"expression":"4d6dl1 + 1d6! [bonus]","formula":"4d6dl1+1d6![bonus]","total":20,` +
		`"text":"4d6dl1+1d6![bonus]: [6, 4, 3, 2d]+[6!, 1] = 20","start":0,"end":0,` +
		`"tree":{"type":"op","value":20,"op":"+","args":[` +
		`{"type":"dice","value":13,"notation":"4d6dl1","count":4,"sides":6,"dice":[{"value":6,"sides":6},{"value":4,"sides":6},{"value":3,"sides":6},{"value":2,"sides":6,"dropped":true}]},` +
		`{"type":"dice","value":7,"notation":"1d6!","label":"bonus","count":1,"sides":6,"dice":[{"value":6,"sides":6,"exploded":true},{"value":1,"sides":6,"explosion":true}]}]}}`
	if string(data) != want {
		t.Errorf("JSON\n got: %s\nwant: %s", data, want)
	}
}
