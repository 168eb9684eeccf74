package systems

import (
	"fmt"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// What a character's sheet draws beside its actions, as the system
// declares it on a unique kind:
//
//	health = "Hit points",  -- what the first range is called on the sheet
//	tallies = {
//	  { key = "death_saves", title = "Death saves", most = 3, shown = "down",
//	    marks = { { key = "successes", title = "Successes" }, { key = "failures", title = "Failures" } } },
//	},
//
// A tally is a data key holding { mark = count, ... } that the player
// marks (when the kind lists it in editable); shown is "always", or
// "down": only while the character's health is 0 or below or a mark is
// set. The core and the clients name no such track of their own.

// Limits of the sheet declarations.
const (
	maxTallies     = 20
	maxTallyMarks  = 10
	maxTallyCount  = 20
	defaultHealth  = "Health"
	tallyShownDown = "down"
)

// tallyOption reads a kind's tallies, adding a problem for each mistake.
func tallyOption(d *scripting.EntityDecl, add func(string, ...any)) []core.Tally {
	v, ok := d.Fields["tallies"]
	if !ok {
		return nil
	}
	list, isList := v.([]any)
	if !isList || len(list) > maxTallies {
		add("tallies must be a list of at most %d { key, title, marks, most, shown }", maxTallies)
		return nil
	}
	out := []core.Tally{}
	for i, item := range list {
		bad := func(format string, args ...any) { add("tallies[%d] %s", i+1, fmt.Sprintf(format, args...)) }
		t, isTable := item.(map[string]any)
		if !isTable {
			bad("must be a table { key, title, marks, most, shown }")
			continue
		}
		var tally core.Tally
		for name, value := range t {
			switch name {
			case "key", "title", "shown":
				s, isString := value.(string)
				if !isString || strings.TrimSpace(s) == "" || len(s) > maxActionText {
					bad("%s must be a non-empty string of at most %d bytes", name, maxActionText)
					continue
				}
				switch name {
				case "key":
					tally.Key = s
				case "title":
					tally.Title = s
				default:
					if s != "always" && s != tallyShownDown {
						bad("shown must be \"always\" or \"down\", not %q", s)
					}
					tally.Shown = s
				}
			case "most":
				n, isNumber := declaredNumber(value)
				if !isNumber || n < 1 || n > maxTallyCount || n != float64(int(n)) {
					bad("most must be a whole number from 1 to %d", maxTallyCount)
					continue
				}
				tally.Most = int(n)
			case "marks":
				marks, isMarks := value.([]any)
				if !isMarks || len(marks) == 0 || len(marks) > maxTallyMarks {
					bad("marks must be a list of 1 to %d { key, title }", maxTallyMarks)
					continue
				}
				for j, m := range marks {
					mt, isMark := m.(map[string]any)
					key, _ := mt["key"].(string)
					title, _ := mt["title"].(string)
					if !isMark || len(mt) != 2 || key == "" || title == "" || len(key)+len(title) > maxActionText {
						bad("marks[%d] must be { key = \"...\", title = \"...\" }", j+1)
						continue
					}
					tally.Marks = append(tally.Marks, core.RollOption{ID: key, Title: title})
				}
			default:
				bad("has unknown field %q (known: key, title, marks, most, shown)", name)
			}
		}
		if tally.Key == "" || tally.Title == "" || len(tally.Marks) == 0 || tally.Most == 0 {
			bad("needs key, title, marks and most")
			continue
		}
		if tally.Shown == "" {
			tally.Shown = "always"
		}
		out = append(out, tally)
	}
	return out
}

// HealthTitle is what kind calls its health on a sheet (core.SheetRules).
func (s *System) HealthTitle(kind string) string {
	if k, ok := s.byName[kind]; ok && k.HealthTitle != "" {
		return k.HealthTitle
	}
	return defaultHealth
}

// Tallies lists the tallies kind's sheet draws (core.SheetRules).
func (s *System) Tallies(kind string) []core.Tally {
	if k, ok := s.byName[kind]; ok {
		return append([]core.Tally(nil), k.Tallies...)
	}
	return nil
}

// HealthTitle forwards to the current system (core.SheetRules).
func (h *Holder) HealthTitle(kind string) string { return h.Current().HealthTitle(kind) }

// Tallies forwards to the current system (core.SheetRules).
func (h *Holder) Tallies(kind string) []core.Tally { return h.Current().Tallies(kind) }

var (
	_ core.SheetRules = (*Holder)(nil)
	_ core.SheetRules = (*System)(nil)
)
