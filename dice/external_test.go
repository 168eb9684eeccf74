package dice_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/dice"
)

// The server stores rolls through core.Roller.
var _ core.Roller = (*dice.Roller)(nil)

func TestRollerAsCoreRoller(t *testing.T) {
	var roller core.Roller = dice.NewSeededRoller(42)
	stored, rolls, _, err := roller.RollText("/r 1d20+5")
	if err != nil || len(rolls) != 1 || stored == "" {
		t.Fatalf("RollText: %q %s %v", stored, rolls, err)
	}
	var res struct{ Total float64 }
	if err := json.Unmarshal(rolls[0], &res); err != nil || res.Total < 6 || res.Total > 25 {
		t.Errorf("total %v (%v)", res.Total, err)
	}
}

// The same seed gives the same rolls; one Roller is safe from many
// goroutines (run with -race).
func TestSeededAndConcurrent(t *testing.T) {
	a, _ := dice.NewSeededRoller(7).Roll("10d100")
	b, _ := dice.NewSeededRoller(7).Roll("10d100")
	if a.Text() != b.Text() {
		t.Errorf("same seed, different rolls: %s / %s", a.Text(), b.Text())
	}
	r := dice.NewRoller()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				res, err := r.Roll("4d6dl1 + {1d20+5, 1d20+3}kh1")
				if err != nil || res.Total < 4 || res.Total > 43 {
					t.Errorf("%v %v", res, err)
					return
				}
				if _, _, _, err := r.RollText("hit [[1d20]] for [[2d6!]]"); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
