package engine_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

var msgTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func TestMessageJSONCarriesContentBesideText(t *testing.T) {
	chat := &core.Message{ID: "m1", Type: core.MessageChat, Source: "Ellie", Color: "#4caf50", Creature: "Brin", Text: "I check the ceiling.", Campaign: "c", Created: msgTime}
	wantJSON(t, "chat", chat, `{"id":"m1","type":"chat","source":"Ellie","color":"#4caf50","creature":"Brin",
		"text":"I check the ceiling.","campaign":"c","created":"2026-01-02T03:04:05Z","content":"I check the ceiling."}`)

	roll := &core.Message{ID: "m2", Type: core.MessageRoll, Text: "1d20+5: [15]+5 = 20 # Longsword attack", Campaign: "c", Created: msgTime,
		Rolls: []core.RollResult{core.NewRollResult(json.RawMessage(`{"expression":"1d20+5","formula":"1d20+5","total":20,"text":"1d20+5: [15]+5 = 20","comment":"Longsword attack","start":6,"end":12,"tree":null}`))}}
	b, _ := json.Marshal(roll)
	var got struct {
		Text    string           `json:"text"`
		Rolls   []map[string]any `json:"rolls"`
		Content core.RollContent `json:"content"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Text == "" || len(got.Rolls) != 1 {
		t.Fatalf("roll message lost the contract's text or rolls: %s", b)
	}
	wantJSON(t, "roll content", got.Content, `{"name":"Longsword attack","type":"attack","formula":"1d20+5","result":20,"detail":"[15]+5 = 20"}`)

	table := &core.Message{ID: "m3", Type: core.MessageTableRoll, Text: `{"table":"Weather","result":"Fog"}`, Created: msgTime}
	wantJSON(t, "tableRoll content", table.Content(), `"{\"table\":\"Weather\",\"result\":\"Fog\"}"`)

	sent := &core.Message{ID: "m4", Type: core.MessageRoll, Text: `{"name":"Stealth","type":"check","formula":"1d20","result":9,"detail":"[9]"}`}
	wantJSON(t, "a roll a client sent", sent.Content(), `{"name":"Stealth","type":"check","formula":"1d20","result":9,"detail":"[9]"}`)

	failed := &core.Message{ID: "m5", Type: core.MessageRoll, Text: "/r 1d0", Rolls: []core.RollResult{core.NewRollResult(json.RawMessage(`{"expression":"1d0","error":"no sides"}`))}}
	wantJSON(t, "a failed roll", failed.Content(), `"/r 1d0"`)
}

func TestRollContentKinds(t *testing.T) {
	for comment, want := range map[string]string{
		"Longsword attack": "attack", "fire damage": "damage", "Cure Wounds healing": "heal",
		"Dex save": "save", "Perception check": "check", "initiative": "", "": "",
	} {
		m := &core.Message{Type: core.MessageRoll, Rolls: []core.RollResult{core.NewRollResult(json.RawMessage(
			`{"formula":"1d20","total":3,"text":"1d20: [3] = 3","comment":` + string(mustJSON(comment)) + `}`))}}
		c, ok := m.Content().(core.RollContent)
		if !ok || c.Type != want {
			t.Errorf("%q: content %+v, want type %q", comment, m.Content(), want)
		}
		if comment == "" && c.Name != "1d20" {
			t.Errorf("a roll without a comment is named %q, want its formula", c.Name)
		}
	}
}

// The real client's roll titles: "/r 1d20+3 [dagger:attack]".
func TestRollContentReadsTheRealClientsTitles(t *testing.T) {
	for formula, want := range map[string][3]string{
		"1d20+3[dagger:attack]": {"dagger", "attack", "1d20+3"},
		"1d4+3[dagger:damage]":  {"dagger", "damage", "1d4+3"},
		"1d20+3[cha:save]":      {"cha", "save", "1d20+3"},
		"1d20+3[initiative]":    {"initiative", "", "1d20+3"},
		"1d20+3[lucky:charm]":   {"lucky:charm", "", "1d20+3"},
		"2d6[fire]+1d6[cold]":   {"2d6[fire]+1d6[cold]", "", "2d6[fire]+1d6[cold]"},
		"2d20kh1":               {"2d20kh1", "", "2d20kh1"},
	} {
		m := &core.Message{Type: core.MessageRoll, Rolls: []core.RollResult{core.NewRollResult(json.RawMessage(
			`{"formula":` + string(mustJSON(formula)) + `,"total":7,"text":` + string(mustJSON(formula+": [4]+3 = 7")) + `}`))}}
		c, _ := m.Content().(core.RollContent)
		if c.Name != want[0] || c.Type != want[1] || c.Formula != want[2] || c.Detail != "[4]+3 = 7" {
			t.Errorf("%s: %+v, want name %q type %q formula %q", formula, c, want[0], want[1], want[2])
		}
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
