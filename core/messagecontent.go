package core

import (
	"encoding/json"
	"regexp"
	"strings"
)

// MessageTableRoll is the type of a message carrying a roll-table result;
// its text is that result as JSON.
const MessageTableRoll = "tableRoll"

// RollContent is the content of a roll message as the real web client
// reads it: the roll's name, its kind (attack, damage, heal, check, save
// or empty), its formula, its total and the die-by-die detail.
type RollContent struct {
	Name    string  `json:"name"`
	Type    string  `json:"type"`
	Formula string  `json:"formula"`
	Result  float64 `json:"result"`
	Detail  string  `json:"detail"`
}

// rollKinds are the roll types the real client knows, found as words in a
// roll's name ("Longsword attack", "fire damage", "Dex save"...).
var rollKinds = []string{"attack", "damage", "heal", "check", "save"}

// MarshalJSON writes a message with content beside the contract's text,
// the field the real web client reads (docs/client-compatibility.md):
// the text as a string for chat and command, the roll as a RollContent
// object for a roll, the table-roll JSON as a string for a tableRoll.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message // without this method
	content, err := json.Marshal(m.Content())
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		plain
		Content json.RawMessage `json:"content"`
	}{plain(m), content})
}

// StoredJSON is the message as the store keeps it: its fields without
// the content MarshalJSON adds, which is made from them again whenever
// the message is sent (a roll's die-by-die detail would otherwise be kept
// a third time).
func (m *Message) StoredJSON() ([]byte, error) {
	type plain Message // without MarshalJSON
	return json.Marshal((*plain)(m))
}

// Content is the content the real client reads for m (see MarshalJSON). A
// roll message whose first roll failed, or that has no roll, falls back to
// its text; a roll message a client sent with an object content keeps it.
func (m *Message) Content() any {
	if m.Type != MessageRoll {
		return m.Text
	}
	if c, ok := rollContentOf(m.Rolls); ok {
		return c
	}
	if t := strings.TrimSpace(m.Text); strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return m.Text
}

// rollContentOf reads the first successful roll of a message's rolls as a
// RollContent.
func rollContentOf(rolls []RollResult) (RollContent, bool) {
	for _, r := range rolls {
		if r.Total == nil || r.Error != "" {
			continue
		}
		detail := strings.TrimPrefix(r.Text, r.Formula+": ")
		formula, title, kind := rollTitle(r.Formula)
		name, commentKind := titleAndKind(strings.TrimSpace(r.Comment))
		if commentKind != "" {
			kind = commentKind
			detail = strings.TrimSuffix(detail, " # "+r.Comment)
		}
		for _, alt := range []string{title, r.Label, formula} {
			if name == "" {
				name = alt
			}
		}
		if kind == "" {
			kind = rollKind(name)
		}
		return RollContent{Name: name, Type: kind, Formula: formula, Result: *r.Total, Detail: detail}, true
	}
	return RollContent{}, false
}

// rollLabel matches a dice label, "[...]".
var rollLabel = regexp.MustCompile(`\[([^\[\]]*)\]`)

// rollTitle reads the real client's roll title: a formula with a single
// label, last, is "/r 1d20+3 [dagger:attack]" — the title "dagger" and
// the kind after the colon when it is one the client knows. It returns the
// formula without that label. Formulas with several labels ("2d6[fire]+
// 1d6[cold]") label their terms, not the roll: they are returned as they
// are.
func rollTitle(formula string) (rest, title, kind string) {
	labels := rollLabel.FindAllStringSubmatchIndex(formula, -1)
	if len(labels) != 1 || labels[0][1] != len(formula) {
		return formula, "", ""
	}
	rest = strings.TrimSpace(formula[:labels[0][0]])
	title, kind = titleAndKind(strings.TrimSpace(formula[labels[0][2]:labels[0][3]]))
	return rest, title, kind
}

// titleAndKind splits "Dagger:attack" into the title and the kind after
// its last colon, when that is a kind the client knows; anything else is
// all title. A roll's label or its comment may carry it ("/r 1d20+5 #
// Longsword:attack"), and a character's actions do (service_character.go).
func titleAndKind(s string) (title, kind string) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return s, ""
	}
	after := strings.TrimSpace(s[i+1:])
	for _, k := range rollKinds {
		if strings.EqualFold(after, k) {
			return strings.TrimSpace(s[:i]), k
		}
	}
	return s, ""
}

// rollKind finds the kind of a roll in its name, "" when none.
func rollKind(name string) string {
	lower := strings.ToLower(name)
	for _, k := range rollKinds {
		for _, word := range strings.FieldsFunc(lower, func(r rune) bool { return !('a' <= r && r <= 'z') }) {
			if word == k || word == k+"s" || (k == "heal" && word == "healing") {
				return k
			}
		}
	}
	return ""
}
