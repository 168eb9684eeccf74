package imports

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vttapp/companion/core"
)

// gateMapper is fakeMapper stopping at its second entry until the test
// opens the gate, so that an install can be watched mid-way.
type gateMapper struct {
	fakeMapper
	calls   atomic.Int32
	reached chan struct{}
	gate    chan struct{}
	once    sync.Once
}

// open lets the stopped entry go on (once).
func (g *gateMapper) open() { g.once.Do(func() { close(g.gate) }) }

func (g *gateMapper) MapCompendium(ctx context.Context, kind string, el map[string]any) ([]*core.Entity, error) {
	if g.calls.Add(1) == 2 {
		close(g.reached)
		<-g.gate
	}
	return g.fakeMapper.MapCompendium(ctx, kind, el)
}

type gateCollections struct {
	testCollections
	m *gateMapper
}

func (g gateCollections) Compendium() CompendiumMapper { return g.m }

func newGate() *gateMapper {
	return &gateMapper{reached: make(chan struct{}), gate: make(chan struct{})}
}

const threeSpells = `<compendium><spell><name>A</name></spell><spell><name>B</name></spell><spell><name>C</name></spell></compendium>`

// A direct import (the console's upload) is listed with its progress while
// it runs, and no longer once it is done.
func TestRunningImportShowsProgress(t *testing.T) {
	env := newTestEnv(t)
	gate := newGate()
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: gateCollections{m: gate}})
	t.Cleanup(m.Close)
	t.Cleanup(gate.open) // before Close, whatever happens
	done := make(chan error, 1)
	go func() {
		_, err := m.ImportFile(context.Background(), strings.NewReader(threeSpells), "Sparks.xml", "")
		done <- err
	}()
	<-gate.reached
	// The reader may be ahead of the hook: at least the first entry is read.
	running := m.Running()
	if len(running) != 1 || running[0].Name != "Sparks.xml" || running[0].Install == nil ||
		running[0].Install.Stage != StageReading || running[0].Install.Entries < 1 || running[0].Install.Total != int64(len(threeSpells)) {
		t.Fatalf("running %+v", running)
	}
	gate.open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if running := m.Running(); len(running) != 0 {
		t.Errorf("still running: %+v", running)
	}
}

// An accepted offer carries its install progress until it settles.
func TestOfferShowsInstallProgress(t *testing.T) {
	env := newTestEnv(t)
	gate := newGate()
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: gateCollections{m: gate}})
	t.Cleanup(m.Close)
	t.Cleanup(gate.open)
	o, err := m.OfferFile(strings.NewReader(threeSpells), "Sparks.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	<-gate.reached
	mid, _ := m.Get(o.ID)
	if mid.Status != StatusDownloading || mid.Install == nil || mid.Install.Stage != StageReading || mid.Install.Entries < 1 {
		t.Fatalf("offer mid-way %+v %+v", mid, mid.Install)
	}
	gate.open()
	end := settle(t, m, o.ID)
	if end.Status != StatusInstalled || end.Result == nil || end.Result.Compendium == nil || end.Result.Compendium.Entities != 3 {
		t.Fatalf("offer %+v", end)
	}
	if end.Install == nil || end.Install.Stage != StageWriting || end.Install.Done != 3 {
		t.Errorf("last progress %+v", end.Install)
	}
}
