package systems

import (
	"testing"

	"github.com/vttapp/companion/core/turns"

	"github.com/vttapp/companion/core"
)

// The core takes the holder's rules once per request: what RulesNow gave
// stays the system of that request after a reload swaps another in, and it
// answers every optional rule the core asks the holder for.
func TestRulesNowStaysTheSystemItWasWhenReloaded(t *testing.T) {
	descending, err := Load(mapFS(initiativeSystem(`"desc"`)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer descending.Close()
	ascending, err := Load(mapFS(initiativeSystem(`"asc"`)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ascending.Close()
	h := NewHolder(descending)
	pinned := h.RulesNow()
	h.Swap(ascending)
	sorter, ok := pinned.(turns.InitiativeSorter)
	if !ok {
		t.Fatal("the pinned rules do not sort initiative")
	}
	if sorter.InitiativeAscending() {
		t.Error("the pinned rules follow the reload")
	}
	if !h.InitiativeAscending() || !h.RulesNow().(turns.InitiativeSorter).InitiativeAscending() {
		t.Error("the holder does not answer with the system swapped in")
	}
	if _, ok := pinned.(core.TokenRules); !ok {
		t.Error("the pinned rules do not place tokens")
	}
	if _, ok := pinned.(core.InitiativeRules); !ok {
		t.Error("the pinned rules do not roll initiative")
	}
}
