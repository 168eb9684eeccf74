package engine_test

import (
	"context"
	"sync"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
)

// reloadingRules stands for a system holder whose system is reloaded
// between any two questions: each answer of its own comes from a new
// version. RulesNow hands out one version that stays as it is. Every
// answer records the version that gave it.
type reloadingRules struct {
	mu       sync.Mutex
	next     int
	answered map[int]bool
}

func (h *reloadingRules) reload() versionRules {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	return versionRules{version: h.next, holder: h}
}

func (h *reloadingRules) saw(version int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.answered == nil {
		h.answered = map[int]bool{}
	}
	h.answered[version] = true
}

// versions returns how many versions answered since the last call.
func (h *reloadingRules) versions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.answered)
	h.answered = nil
	return n
}

func (h *reloadingRules) RulesNow() core.Rules        { return h.reload() }
func (h *reloadingRules) SystemID() string            { return h.reload().SystemID() }
func (h *reloadingRules) IsUnique(kind string) bool   { return h.reload().IsUnique(kind) }
func (h *reloadingRules) Ranges(kind string) []string { return h.reload().Ranges(kind) }
func (h *reloadingRules) InitiativeAscending() bool   { return h.reload().InitiativeAscending() }
func (h *reloadingRules) HitPointRanges() []string    { return h.reload().HitPointRanges() }
func (h *reloadingRules) TokenFor(ctx context.Context, e *core.Entity) (*core.TokenTemplate, error) {
	return h.reload().TokenFor(ctx, e)
}
func (h *reloadingRules) InitiativeFor(ctx context.Context, e *core.Entity) (*core.InitiativeRule, error) {
	return h.reload().InitiativeFor(ctx, e)
}

// versionRules is one version of the system: svcRules' answers, recorded.
type versionRules struct {
	version int
	holder  *reloadingRules
}

func (r versionRules) SystemID() string { r.holder.saw(r.version); return svcRules{}.SystemID() }
func (r versionRules) IsUnique(kind string) bool {
	r.holder.saw(r.version)
	return svcRules{}.IsUnique(kind)
}
func (r versionRules) Ranges(kind string) []string {
	r.holder.saw(r.version)
	return svcRules{}.Ranges(kind)
}
func (r versionRules) InitiativeAscending() bool { r.holder.saw(r.version); return false }
func (r versionRules) HitPointRanges() []string {
	r.holder.saw(r.version)
	return svcRules{}.HitPointRanges()
}
func (r versionRules) TokenFor(context.Context, *core.Entity) (*core.TokenTemplate, error) {
	r.holder.saw(r.version)
	return &core.TokenTemplate{Role: core.RoleHostile}, nil
}
func (r versionRules) InitiativeFor(context.Context, *core.Entity) (*core.InitiativeRule, error) {
	r.holder.saw(r.version)
	return &core.InitiativeRule{Formula: "1d20"}, nil
}

// pinRoller rolls every formula to 12.
type pinRoller struct{ svcRoller }

func (pinRoller) Total(string) (float64, error) { return 12, nil }

// A reload in the middle of a request must not mix two versions of a
// system: every request asks one version, however many questions it asks.
func TestEveryRequestAsksOneVersionOfTheSystem(t *testing.T) {
	f := newSvcFixture(t, true)
	rules := &reloadingRules{}
	svc := engine.NewService(engine.ServiceConfig{Store: f.store, Events: &svcRecorder{}, Rules: rules, Roller: pinRoller{}})
	damage := 4.0
	requests := []struct {
		name string
		run  func() error
	}{
		{"PatchEntity of a unique entity", func() error {
			_, err := svc.PatchEntity(svcCtx, "character", svcHero, core.Object{"data": core.Object{"hit_points": 25.0}})
			return err
		}},
		{"AddCombatants", func() error {
			_, err := svc.AddCombatants(svcCtx, []core.NewCombatant{{EntityID: svcGoblin}, {EntityID: svcHero}})
			return err
		}},
		{"ChangeHitPoints", func() error {
			_, err := svc.ChangeHitPoints(svcCtx, svcHeroCombatant, core.HitPointChange{Damage: &damage})
			return err
		}},
		{"RollInitiative", func() error {
			_, err := svc.RollInitiative(svcCtx, nil)
			return err
		}},
		{"PlaceToken", func() error {
			_, err := svc.PlaceToken(svcCtx, svcMap, core.PlaceToken{EntityID: svcGoblin, X: 5, Y: 5})
			return err
		}},
		{"PatchToken", func() error {
			_, err := svc.PatchToken(svcCtx, svcTokenA, core.Object{"x": 40.0})
			return err
		}},
		{"ControlCombat", func() error {
			_, err := svc.ControlCombat(svcCtx, "start")
			return err
		}},
		{"Snapshot", func() error {
			_, err := svc.Snapshot(svcCtx)
			return err
		}},
	}
	for _, r := range requests {
		rules.versions()
		if err := r.run(); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if n := rules.versions(); n != 1 {
			t.Errorf("%s asked %d versions of the system, want 1", r.name, n)
		}
	}
}
