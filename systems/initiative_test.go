package systems

import (
	"testing"

	"github.com/vttapp/companion/core/turns"

	"github.com/vttapp/companion/core"
)

// initiativeSystem is a one-kind system whose config sets sortOrder.
func initiativeSystem(sortOrder string) map[string]string {
	return map[string]string{
		"system.json": okManifest,
		"system.lua": `local companion = require("companion")
companion.entity("monster", { collection = "monsters", view = function(e) return {} end })
companion.system{ config = { combat = { initiative = { mode = "roll", sortOrder = ` + sortOrder + ` } } } }
`,
		"templates/monster.html": "<p>{{ view.name }}</p>",
	}
}

func TestInitiativeSortOrderComesFromConfig(t *testing.T) {
	for sortOrder, want := range map[string]bool{`"asc"`: true, `"desc"`: false, `nil`: false} {
		s, err := Load(mapFS(initiativeSystem(sortOrder)), Options{})
		if err != nil {
			t.Fatalf("sortOrder %s: %v", sortOrder, err)
		}
		if got := s.InitiativeAscending(); got != want {
			t.Errorf("sortOrder %s: InitiativeAscending = %v, want %v", sortOrder, got, want)
		}
		h := NewHolder(s)
		var rules core.Rules = h
		if sorter, ok := rules.(turns.InitiativeSorter); !ok || sorter.InitiativeAscending() != want {
			t.Errorf("sortOrder %s: the holder does not pass the direction on to core", sortOrder)
		}
		s.Close()
	}
	if loadTiny(t).InitiativeAscending() {
		t.Error("a system without combat config sorts ascending")
	}
}

func TestInitiativeSortOrderMustBeKnown(t *testing.T) {
	for _, bad := range []string{`"up"`, `1`, `{ "asc" }`} {
		got := problemsOf(t, initiativeSystem(bad))
		expectProblems(t, got, `system.lua:3: companion.system: config.combat.initiative.sortOrder must be "asc" or "desc", not `)
	}
}
