package hub

import (
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/redact"
)

// BenchmarkBroadcastWithHostSocket measures what the host console's socket
// adds to a broadcast: with one connected, events whose payload players
// see redacted (a token, a game, a map) are encoded a second time, for the
// host. The baseline is the same batch broadcast with no host socket, in
// the same run; the ratio is reported as host/baseline. No connection is
// open, so this is the encoding alone, the part the host changes.
func BenchmarkBroadcastWithHostSocket(b *testing.B) {
	hub := New(engine.NewService(engine.ServiceConfig{}), core.NewBus(), nil, Options{})
	defer hub.Close()
	hidden := true
	image := "/monsters/goblin.png"
	var combatants []*core.Combatant
	for i := range 12 {
		c := &core.Combatant{ID: core.NewID(), Name: "Goblin", Hidden: i%4 == 0, Initiative: []core.Initiative{{ID: "i", Value: float64(i)}},
			Data: core.Object{"hit_points": 7.0, "max_hit_points": 7.0}}
		c.Normalize()
		combatants = append(combatants, c)
	}
	game := &core.Game{Started: true, Round: 2, Turn: 3, Combatants: combatants}
	token := &core.Token{ID: core.NewID(), Name: "Goblin", X: 140, Y: 70, Hidden: hidden, Image: &image}
	token.Normalize()
	events := []core.Event{
		{Name: core.EventTokenUpdated, Data: token},
		{Name: core.EventCombatantUpdated, Data: combatants[0]},
		{Name: core.EventGameUpdated, Data: redact.Views{Players: game, Host: game}},
		{Name: core.EventTokenMoved, Data: &core.Movement{ID: token.ID, X: 150, Y: 80, State: core.DragControl}},
	}
	run := func(hosts int64) time.Duration {
		hub.hostCount.Store(hosts)
		start := time.Now()
		for range b.N {
			hub.broadcast(events)
		}
		return time.Since(start)
	}
	b.ReportAllocs()
	b.ResetTimer()
	base := run(0)
	withHost := run(1)
	hub.hostCount.Store(0)
	b.ReportMetric(float64(base.Nanoseconds())/float64(b.N), "baseline-ns/batch")
	b.ReportMetric(float64(withHost.Nanoseconds())/float64(b.N), "host-ns/batch")
	b.ReportMetric(float64(withHost)/float64(base), "host/baseline")
}
