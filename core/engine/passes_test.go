package engine_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/systems"
)

// clock is a time the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// passGame is the seat fixture's store under a service on a clock, with
// the join key on; it returns the service, the clock and the players' key
// grant.
func passGame(t *testing.T) (*engine.Service, *clock, core.Grant) {
	t.Helper()
	g := newSeatGame(t)
	c := &clock{now: time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)}
	svc := engine.NewService(engine.ServiceConfig{Store: g.store, Rules: systems.NewHolder(testkit.DnD5e(t)), Now: c.Now})
	ctx := context.Background()
	st, err := svc.SetJoinKey(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	grant, ok := svc.Admit(ctx, st.Key)
	if !ok {
		t.Fatal("the key")
	}
	return svc, c, grant
}

// The pass table: one address keeps at most MaxPassesPerAddress (its own
// oldest goes), a full table forgets only a pass nobody has used for a
// day, and when every pass is in use a new one is refused rather than
// taking another device's.
func TestAFullPassTableNeverEvictsAPassInUse(t *testing.T) {
	svc, c, grant := passGame(t)
	ctx := context.Background()

	// One address, minting a pass a minute for half an hour: it keeps 20.
	var first string
	for i := range 30 {
		p, err := svc.IssuePass(ctx, grant, "192.168.1.50", "")
		if err != nil {
			t.Fatalf("mint %d: %v", i, err)
		}
		if i == 0 {
			first = p
		}
		c.add(time.Minute)
	}
	if st, _ := svc.JoinStatus(ctx); st.Passes != core.MaxPassesPerAddress {
		t.Fatalf("one address holds %d passes, want %d", st.Passes, core.MaxPassesPerAddress)
	}
	if _, ok := svc.Admit(ctx, first); ok {
		t.Fatal("the address's oldest pass was kept past its limit")
	}

	// Fill the table from many addresses (ten each, a burst).
	var passes []string
	for a := 0; len(passes) < core.MaxJoinPasses-core.MaxPassesPerAddress; a++ {
		for range 10 {
			p, err := svc.IssuePass(ctx, grant, fmt.Sprintf("10.0.%d.%d", a/200, a%200), "")
			if err != nil {
				t.Fatal(err)
			}
			passes = append(passes, p)
		}
	}
	// Full, and every pass in use: a new device is refused; nobody loses
	// a pass.
	if _, err := svc.IssuePass(ctx, grant, "10.1.0.1", ""); core.KindOf(err) != core.KindRateLimited {
		t.Fatalf("a mint past a full table of passes in use: %v", err)
	}
	for _, p := range passes {
		if _, ok := svc.Admit(ctx, p); !ok {
			t.Fatal("a pass in use was forgotten")
		}
	}
	// A day later, with every pass but the first address's used again,
	// a new device takes the place of one that nobody used.
	c.add(core.PassInUse + time.Hour)
	for _, p := range passes {
		svc.Admit(ctx, p)
	}
	if _, err := svc.IssuePass(ctx, grant, "10.1.0.1", ""); err != nil {
		t.Fatalf("a mint with an idle pass to forget: %v", err)
	}
	for _, p := range passes {
		if _, ok := svc.Admit(ctx, p); !ok {
			t.Fatal("a pass in use was forgotten for an idle one")
		}
	}
}

// A pass minted by a browser holding another is the same device; a kick
// of either revokes both, on this machine too (loopback binds no address).
// Minting from loopback is not counted.
func TestAPassJoinsTheDeviceOfThePassItsBrowserHeld(t *testing.T) {
	svc, _, grant := passGame(t)
	ctx := context.Background()
	first, _ := svc.IssuePass(ctx, grant, "127.0.0.1", "")
	second, _ := svc.IssuePass(ctx, grant, "127.0.0.1", first)
	other, _ := svc.IssuePass(ctx, grant, "127.0.0.1", "")
	for range 3 * core.PassMintBurst {
		if _, err := svc.IssuePass(ctx, grant, "::1", ""); err != nil {
			t.Fatalf("minting on this machine is not counted: %v", err)
		}
	}
	g1, _ := svc.Admit(ctx, first)
	kicked, err := svc.Kick(ctx, core.KickTarget{Pass: g1.Pass, Address: "127.0.0.1"})
	if err != nil || len(kicked.Passes) != 2 {
		t.Fatalf("kick: %+v %v", kicked, err)
	}
	if _, ok := svc.Admit(ctx, second); ok {
		t.Error("the pass its browser minted from the first survived the kick")
	}
	if _, ok := svc.Admit(ctx, other); !ok {
		t.Error("another device on this machine lost its pass")
	}
}
