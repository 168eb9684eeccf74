package dnd5e

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/textfmt"
)

// formatMonsterGo is the monster view written in Go: the benchmark baseline
// for the Lua view (lib/monster.lua). TestSRDMonstersMatchGoFormatting
// keeps the two in agreement on every SRD monster.

type goBlock struct {
	Type  string   `json:"type"`
	Lead  string   `json:"lead,omitempty"`
	Text  string   `json:"text,omitempty"`
	Items []string `json:"items,omitempty"`
}

type goFeature struct {
	Name   string    `json:"name"`
	Text   string    `json:"text"`
	Blocks []goBlock `json:"blocks,omitempty"`
}

type goMonsterView struct {
	ID                    string      `json:"id"`
	Kind                  string      `json:"kind"`
	Name                  string      `json:"name"`
	Slug                  string      `json:"slug"`
	Subtitle              string      `json:"subtitle"`
	ArmorClass            string      `json:"armor_class"`
	HitPoints             string      `json:"hit_points"`
	Speed                 string      `json:"speed"`
	Abilities             []string    `json:"abilities"`
	SavingThrows          string      `json:"saving_throws,omitempty"`
	Skills                string      `json:"skills,omitempty"`
	DamageVulnerabilities string      `json:"damage_vulnerabilities,omitempty"`
	DamageResistances     string      `json:"damage_resistances,omitempty"`
	DamageImmunities      string      `json:"damage_immunities,omitempty"`
	ConditionImmunities   string      `json:"condition_immunities,omitempty"`
	Senses                string      `json:"senses"`
	Languages             string      `json:"languages"`
	Challenge             string      `json:"challenge"`
	ChallengeRating       string      `json:"challenge_rating"`
	ProfBon               string      `json:"proficiency_bonus"`
	Description           []goBlock   `json:"description,omitempty"`
	SpecialAbilities      []goFeature `json:"special_abilities,omitempty"`
	Actions               []goFeature `json:"actions"`
	LegendaryIntro        string      `json:"legendary_intro,omitempty"`
	LegendaryActions      []goFeature `json:"legendary_actions,omitempty"`
	Reactions             []goFeature `json:"reactions,omitempty"`
}

func goText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return textfmt.Thousands(x)
	}
	return ""
}

func goNameOf(v any) string {
	if m, ok := v.(map[string]any); ok {
		if n, ok := m["name"].(string); ok {
			return n
		}
		if n, ok := m["index"].(string); ok {
			return n
		}
		return ""
	}
	return goText(v)
}

func goList(v any) []any { l, _ := v.([]any); return l }

func goNum(v any) (float64, bool) { f, ok := v.(float64); return f, ok }

func goDistance(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return textfmt.FormatNumber(x) + " ft.", true
	}
	return "", false
}

var goAbilities = [6][2]string{
	{"strength", "STR"}, {"dexterity", "DEX"}, {"constitution", "CON"},
	{"intelligence", "INT"}, {"wisdom", "WIS"}, {"charisma", "CHA"},
}

func goArmorClass(v any) string {
	if n, ok := goNum(v); ok {
		return textfmt.FormatNumber(n)
	}
	list := goList(v)
	if m, ok := v.(map[string]any); ok {
		list = []any{m}
	}
	var value *float64
	var notes, extras []string
	for _, raw := range list {
		entry, _ := raw.(map[string]any)
		val, ok := goNum(entry["value"])
		if !ok {
			continue
		}
		kind, _ := entry["type"].(string)
		vs := textfmt.FormatNumber(val)
		switch {
		case kind == "spell" && value != nil:
			notes = append(notes, vs+" with "+strings.ToLower(goNameOf(entry["spell"])))
		case kind == "condition" && value != nil:
			extras = append(extras, vs+" while "+strings.ToLower(goNameOf(entry["condition"])))
		case kind == "condition":
			value = &val
			extras = append(extras, "while "+strings.ToLower(goNameOf(entry["condition"])))
		default:
			value = &val
			switch kind {
			case "natural":
				notes = append(notes, "natural armor")
			case "armor":
				if d, _ := entry["desc"].(string); d != "" {
					notes = append(notes, d)
				}
				for _, a := range goList(entry["armor"]) {
					if n := strings.ToLower(goNameOf(a)); n != "" {
						notes = append(notes, n)
					}
				}
			case "spell":
				notes = append(notes, strings.ToLower(goNameOf(entry["spell"])))
			default:
				if d, _ := entry["desc"].(string); d != "" {
					notes = append(notes, d)
				}
			}
		}
	}
	if value == nil {
		return ""
	}
	s := textfmt.FormatNumber(*value)
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	for _, x := range extras {
		if strings.HasPrefix(x, "while ") {
			s += " " + x
		} else {
			s += ", " + x
		}
	}
	return s
}

func goDiceText(f string) string {
	f = strings.Join(strings.Fields(f), "")
	f = strings.ReplaceAll(f, "+", " + ")
	return strings.ReplaceAll(f, "-", " - ")
}

func goSpeed(v any) string {
	if d, ok := goDistance(v); ok {
		return d
	}
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	var parts []string
	for _, k := range []string{"burrow", "climb", "fly", "swim"} {
		if d, ok := goDistance(m[k]); ok {
			if k == "fly" && m["hover"] == true {
				d += " (hover)"
			}
			parts = append(parts, k+" "+d)
		}
	}
	var others []string
	for k, x := range m {
		switch k {
		case "walk", "hover", "burrow", "climb", "fly", "swim":
			continue
		}
		if _, ok := goDistance(x); ok {
			others = append(others, k)
		}
	}
	sort.Strings(others)
	for _, k := range others {
		d, _ := goDistance(m[k])
		parts = append(parts, strings.ReplaceAll(k, "_", " ")+" "+d)
	}
	walk, ok := goDistance(m["walk"])
	if !ok {
		if len(parts) == 0 {
			return ""
		}
		walk = "0 ft."
	}
	return strings.Join(append([]string{walk}, parts...), ", ")
}

func goProficiencies(v any) (string, string) {
	var saves, skills []string
	for _, raw := range goList(v) {
		p, _ := raw.(map[string]any)
		val, ok := goNum(p["value"])
		if !ok {
			continue
		}
		name := goNameOf(p["proficiency"])
		bonus := textfmt.Signed(val)
		if s, ok := strings.CutPrefix(name, "Saving Throw: "); ok {
			s = strings.ToUpper(s)
			saves = append(saves, s[:1]+strings.ToLower(s[1:])+" "+bonus)
		} else if s, ok := strings.CutPrefix(name, "Skill: "); ok {
			skills = append(skills, s+" "+bonus)
		}
	}
	return strings.Join(saves, ", "), strings.Join(skills, ", ")
}

func goDamageList(v any) string {
	var simple, qualified []string
	for _, x := range goList(v) {
		n := goNameOf(x)
		switch {
		case n == "":
		case strings.ContainsAny(n, ", "):
			qualified = append(qualified, n)
		default:
			simple = append(simple, strings.ToLower(n))
		}
	}
	s := strings.Join(simple, ", ")
	for _, q := range qualified {
		if s == "" {
			s = q
		} else {
			s += "; " + q
		}
	}
	return s
}

func goConditions(v any) string {
	var out []string
	for _, x := range goList(v) {
		if n := goNameOf(x); n != "" {
			out = append(out, strings.ToLower(n))
		}
	}
	return strings.Join(out, ", ")
}

func goSenses(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return goText(v)
	}
	var parts []string
	for _, k := range []string{"blindsight", "darkvision", "tremorsense", "truesight"} {
		if d, ok := goDistance(m[k]); ok {
			parts = append(parts, k+" "+d)
		}
	}
	var others []string
	for k, x := range m {
		switch k {
		case "passive_perception", "blindsight", "darkvision", "tremorsense", "truesight":
			continue
		}
		if _, ok := goDistance(x); ok {
			others = append(others, k)
		}
	}
	sort.Strings(others)
	for _, k := range others {
		d, _ := goDistance(m[k])
		parts = append(parts, strings.ReplaceAll(k, "_", " ")+" "+d)
	}
	if pp, ok := goNum(m["passive_perception"]); ok {
		parts = append(parts, "passive Perception "+textfmt.FormatNumber(pp))
	}
	return strings.Join(parts, ", ")
}

func goUsage(v any) string {
	u, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	switch u["type"] {
	case "per day":
		if t, ok := goNum(u["times"]); ok {
			return "(" + textfmt.FormatNumber(t) + "/Day)"
		}
	case "recharge on roll":
		top := 6.0
		if d, ok := u["dice"].(string); ok {
			if _, after, found := strings.Cut(d, "d"); found {
				if n, err := strconv.Atoi(after); err == nil {
					top = float64(n)
				}
			}
		}
		min, ok := goNum(u["min_value"])
		if !ok || min >= top {
			return "(Recharge " + textfmt.FormatNumber(top) + ")"
		}
		return "(Recharge " + textfmt.FormatNumber(min) + "–" + textfmt.FormatNumber(top) + ")"
	case "recharge after rest":
		var rests []string
		for _, r := range goList(u["rest_types"]) {
			s := goText(r)
			if s != "" {
				s = strings.ToUpper(s[:1]) + s[1:]
			}
			rests = append(rests, s)
		}
		if len(rests) == 0 {
			return "(Recharges after a Rest)"
		}
		return "(Recharges after a " + strings.Join(rests, " or ") + " Rest)"
	case "at will":
		return "(At Will)"
	}
	return ""
}

// goClean drops the Markdown emphasis markers ("***", "**") as lib/text.lua does.
func goClean(s string) string {
	if !strings.Contains(s, "*") {
		return s
	}
	s = strings.ReplaceAll(s, "***", "")
	return strings.ReplaceAll(s, "**", "")
}

func goBlocks(v any) []goBlock {
	var lines []string
	switch x := v.(type) {
	case string:
		for _, l := range strings.Split(x, "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	case []any:
		for _, l := range x {
			if s, ok := l.(string); ok {
				lines = append(lines, s)
			}
		}
	}
	out := make([]goBlock, 0, len(lines))
	var list *goBlock
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			list = nil
			continue
		}
		if (l[0] == '-' || l[0] == '*') && len(l) > 1 && l[1] == ' ' {
			if list == nil {
				out = append(out, goBlock{Type: "list"})
				list = &out[len(out)-1]
			}
			list.Items = append(list.Items, goClean(l[2:]))
			continue
		}
		list = nil
		b := goBlock{Type: "p", Text: goClean(l)}
		if rest, ok := strings.CutPrefix(l, "***"); ok {
			if lead, text, found := strings.Cut(rest, "***"); found {
				b.Lead, b.Text = goClean(lead), goClean(strings.TrimSpace(text))
			}
		}
		out = append(out, b)
	}
	return out
}

func goFeatures(v any) []goFeature {
	var out []goFeature
	for _, raw := range goList(v) {
		f, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		name := goText(f["name"])
		if suffix := goUsage(f["usage"]); suffix != "" && !strings.Contains(name, suffix) {
			name += " " + suffix
		}
		feature := goFeature{Name: name}
		if desc, ok := f["desc"].(string); ok && !strings.Contains(desc, "\n") && !strings.ContainsAny(desc[:min(1, len(desc))], "|-*") {
			feature.Text = goClean(strings.TrimSpace(desc))
		} else if blocks := goBlocks(f["desc"]); len(blocks) > 0 {
			if blocks[0].Type == "p" && blocks[0].Lead == "" {
				feature.Text, blocks = blocks[0].Text, blocks[1:]
			}
			if len(blocks) > 0 {
				feature.Blocks = blocks
			}
		}
		out = append(out, feature)
	}
	return out
}

func formatMonsterGo(e *core.Entity) *goMonsterView {
	d := e.Data
	v := &goMonsterView{ID: e.ID, Kind: e.Kind, Name: e.Name, Slug: e.Slug}
	alignment := goText(d["alignment"])
	s := strings.TrimSpace(goText(d["size"]) + " " + goText(d["type"]))
	if sub := goText(d["subtype"]); sub != "" {
		s += " (" + sub + ")"
	}
	if alignment != "" {
		if s == "" {
			s = alignment
		} else {
			s += ", " + alignment
		}
	}
	v.Subtitle = s
	v.ArmorClass = goArmorClass(d["armor_class"])
	if hp, ok := goNum(d["hit_points"]); ok {
		roll, _ := d["hit_points_roll"].(string)
		if roll == "" {
			roll, _ = d["hit_dice"].(string)
		}
		v.HitPoints = textfmt.FormatNumber(hp)
		if roll != "" {
			v.HitPoints += " (" + goDiceText(roll) + ")"
		}
	}
	v.Speed = goSpeed(d["speed"])
	for _, a := range goAbilities {
		line := a[1] + " —"
		if score, ok := goNum(d[a[0]]); ok {
			line = a[1] + " " + textfmt.FormatNumber(score) + " (" + textfmt.Modifier(score) + ")"
		}
		v.Abilities = append(v.Abilities, line)
	}
	v.SavingThrows, v.Skills = goProficiencies(d["proficiencies"])
	v.DamageVulnerabilities = goDamageList(d["damage_vulnerabilities"])
	v.DamageResistances = goDamageList(d["damage_resistances"])
	v.DamageImmunities = goDamageList(d["damage_immunities"])
	v.ConditionImmunities = goConditions(d["condition_immunities"])
	v.Senses = goSenses(d["senses"])
	v.Languages = goText(d["languages"])
	if v.Languages == "" {
		v.Languages = "—"
	}
	if cr, ok := goNum(d["challenge_rating"]); ok {
		v.ChallengeRating = textfmt.Fraction(cr)
		v.Challenge = v.ChallengeRating
		if xp, ok := goNum(d["xp"]); ok {
			v.Challenge += " (" + textfmt.Thousands(xp) + " XP)"
		}
	}
	if pb, ok := goNum(d["proficiency_bonus"]); ok {
		v.ProfBon = textfmt.Signed(pb)
	} else if cr, ok := goNum(d["challenge_rating"]); ok {
		v.ProfBon = textfmt.Signed(2 + math.Floor((math.Ceil(math.Max(cr, 1))-1)/4))
	}
	v.Description = goBlocks(d["desc"])
	v.SpecialAbilities = goFeatures(d["special_abilities"])
	v.Actions = goFeatures(d["actions"])
	v.LegendaryActions = goFeatures(d["legendary_actions"])
	v.Reactions = goFeatures(d["reactions"])
	if len(v.LegendaryActions) > 0 {
		who := "The " + strings.ToLower(e.Name)
		v.LegendaryIntro = who + " can take 3 legendary actions, choosing from the options below. " +
			"Only one legendary action option can be used at a time and only at the end of another creature's turn. " +
			who + " regains spent legendary actions at the start of its turn."
	}
	return v
}
