package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// Benchmarks of the hot paths. Each reports, next to ns/op, its ratio to a
// baseline measured in the same run, so that the figures compare across
// machines:
//   - PutEntity: the same write with synchronous=NORMAL (no fsync per
//     commit), i.e. the price of the FULL durability we chose;
//   - reads: decoding the same JSON documents with encoding/json alone, i.e.
//     the overhead of SQLite and the transaction around the decoding.

// monster returns an entity about the size of an SRD monster (~2 KB).
func monster(i int) *core.Entity {
	e := testEntity(fmt.Sprintf("monster-%04d", i), "monster", fmt.Sprintf("Monster %04d", (i*7919)%1000), "srd")
	actions := []any{}
	for k := 0; k < 4; k++ {
		actions = append(actions, core.Object{
			"name": fmt.Sprintf("Attack %d", k), "attack": "+5", "damage": "1d8+3 slashing",
			"descr": "Melee Weapon Attack: +5 to hit, reach 5 ft., one target. Hit: 7 (1d8 + 3) slashing damage.",
		})
	}
	e.Data = core.Object{
		"size": "Medium", "type": "humanoid", "alignment": "neutral evil",
		"ac": 15.0, "hp": core.Object{"value": 27.0, "max": 27.0, "formula": "5d8+5"},
		"speed":     core.Object{"walk": 30.0},
		"abilities": core.Object{"str": 16.0, "dex": 12.0, "con": 13.0, "int": 10.0, "wis": 11.0, "cha": 10.0},
		"skills":    core.Object{"perception": 2.0, "stealth": 3.0},
		"senses":    "darkvision 60 ft., passive Perception 12", "languages": "Common, Goblin",
		"challenge": 1.0, "actions": actions,
	}
	e.Descr = "A fearsome creature of the wilds, known for ambushes and cruelty."
	e.Sources = []core.Source{{Name: "SRD 5.1", Page: 166}}
	return e
}

func benchStore(b *testing.B, opt options) *Store {
	b.Helper()
	s, _, err := open(context.Background(), filepath.Join(b.TempDir(), "companion.db"), opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// nsPerOp times n runs of fn, five times over, and returns the median time
// of one run: on a busy machine a single timing of the baseline is noisy.
func nsPerOp(n int, fn func()) float64 {
	var samples []float64
	for range 5 {
		start := time.Now()
		for i := 0; i < n; i++ {
			fn()
		}
		samples = append(samples, float64(time.Since(start).Nanoseconds())/float64(n))
	}
	slices.Sort(samples)
	return samples[len(samples)/2]
}

func reportRatio(b *testing.B, baselineNs float64, unit string) {
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(baselineNs, "baseline-ns/op")
	b.ReportMetric(perOp/baselineNs, unit)
}

// putLoop times one Update with one PutEntity (the entity is replaced).
func putLoop(b *testing.B, s *Store, e *core.Entity, n int) float64 {
	return nsPerOp(n, func() {
		if err := s.Update(bg, func(tx core.Tx) error { return tx.PutEntity(e) }); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkPutEntity(b *testing.B) {
	normal := defaultOptions()
	normal.synchronous = "NORMAL"
	base := benchStore(b, normal)
	e := monster(1)
	putLoop(b, base, e, 20) // warm up
	baseline := putLoop(b, base, e, 50)

	s := benchStore(b, defaultOptions())
	for b.Loop() {
		if err := s.Update(bg, func(tx core.Tx) error { return tx.PutEntity(e) }); err != nil {
			b.Fatal(err)
		}
	}
	reportRatio(b, baseline, "x-sync-normal")
}

func BenchmarkEntityByID(b *testing.B) {
	s := benchStore(b, defaultOptions())
	e := monster(1)
	put(b, s, e)
	doc, _ := json.Marshal(e)
	baseline := nsPerOp(500, func() {
		var got core.Entity
		if err := json.Unmarshal(doc, &got); err != nil {
			b.Fatal(err)
		}
	})
	for b.Loop() {
		err := s.View(bg, func(tx core.Tx) error {
			_, err := tx.Entity(e.ID)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	reportRatio(b, baseline, "x-json-decode")
}

func BenchmarkEntities334(b *testing.B) {
	const n = 334
	s := benchStore(b, defaultOptions())
	docs := make([][]byte, 0, n)
	update(b, s, func(tx core.Tx) error {
		for i := 0; i < n; i++ {
			e := monster(i)
			doc, _ := json.Marshal(e)
			docs = append(docs, doc)
			if err := tx.PutEntity(e); err != nil {
				return err
			}
		}
		// Other kinds the query must skip.
		for i := 0; i < 100; i++ {
			if err := tx.PutEntity(testEntity(fmt.Sprintf("spell-%d", i), "spell", "Spell", "srd")); err != nil {
				return err
			}
		}
		return nil
	})
	baseline := nsPerOp(5, func() {
		out := make([]*core.Entity, 0, n)
		for _, doc := range docs {
			e := new(core.Entity)
			if err := json.Unmarshal(doc, e); err != nil {
				b.Fatal(err)
			}
			out = append(out, e)
		}
		if len(out) != n {
			b.Fatal("baseline decoded the wrong number of entities")
		}
	})
	for b.Loop() {
		err := s.View(bg, func(tx core.Tx) error {
			list, err := tx.Entities(core.EntityQuery{Kind: "monster"})
			if err == nil && len(list) != n {
				b.Fatalf("listed %d entities, want %d", len(list), n)
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	reportRatio(b, baseline, "x-json-decode")
}

func BenchmarkRecentMessages30(b *testing.B) {
	s := benchStore(b, defaultOptions())
	put(b, s, testCampaign("c1"))
	var docs [][]byte
	update(b, s, func(tx core.Tx) error {
		for i := 0; i < 1000; i++ {
			m := testMessage(fmt.Sprintf("msg-%d", i), "c1", fmt.Sprintf("Ann rolls 1d20+5: [[1d20+5]] message %d", i))
			m.Rolls = []core.RollResult{core.NewRollResult(json.RawMessage(`{"expression":"1d20+5","total":17,"dice":[{"sides":20,"value":12}]}`))}
			if i >= 970 {
				doc, _ := json.Marshal(m)
				docs = append(docs, doc)
			}
			if err := tx.AddMessage(m); err != nil {
				return err
			}
		}
		return nil
	})
	baseline := nsPerOp(100, func() {
		for _, doc := range docs {
			var m core.Message
			if err := json.Unmarshal(doc, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	for b.Loop() {
		err := s.View(bg, func(tx core.Tx) error {
			list, err := tx.RecentMessages("c1", core.RecentMessageCount)
			if err == nil && (len(list) != 30 || list[29].ID != "msg-999") {
				b.Fatalf("RecentMessages returned %d messages ending with %s", len(list), list[len(list)-1].ID)
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	reportRatio(b, baseline, "x-json-decode")
}
