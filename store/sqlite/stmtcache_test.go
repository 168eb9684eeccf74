package sqlite

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

func TestStatementsAreCachedAfterTheirTransaction(t *testing.T) {
	s := newStore(t)
	put(t, s, testEntity("e1", "monster", "Goblin", ""))
	if n := len(s.writerStmts.m); n == 0 {
		t.Fatal("the writer cached no statement after an Update")
	}
	view(t, s, func(tx core.Tx) error {
		_, err := tx.Entity("e1")
		return err
	})
	query := "SELECT " + entityColumns + " FROM entities WHERE id = ?"
	if s.readerStmts.lookup(query) == nil {
		t.Fatalf("the readers did not cache %q", query)
	}
	// The cached statement gives the same answers, with other arguments.
	put(t, s, testEntity("e2", "monster", "Orc", ""))
	view(t, s, func(tx core.Tx) error {
		e, err := tx.Entity("e2")
		if err == nil && e.Name != "Orc" {
			t.Fatalf("cached statement read %q", e.Name)
		}
		_, err = tx.Entity("e3")
		wantNotFound(t, err, "no entity with id 'e3'")
		return nil
	})
}

// Every reader connection busy in a View that runs a query for the first
// time: preparing must not wait for a free connection (there is none).
func TestFirstQueriesWithEveryReaderBusy(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"), testEntity("e1", "monster", "Goblin", ""))
	n := max(4, runtime.GOMAXPROCS(0)) // the size of the reader pool
	ctx, cancel := context.WithTimeout(bg, 20*time.Second)
	defer cancel()
	var inside sync.WaitGroup
	inside.Add(n)
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			errs <- s.View(ctx, func(tx core.Tx) error {
				inside.Done()
				inside.Wait() // all n connections are taken now
				if _, err := tx.Entities(core.EntityQuery{Kind: "monster"}); err != nil {
					return err
				}
				_, err := tx.Game("c1")
				return err
			})
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("View: %v", err)
		}
	}
	// The writer has one connection, held by the Update itself.
	update(t, s, func(tx core.Tx) error {
		if err := tx.PutScreen("c1", &core.Screen{}); err != nil {
			return err
		}
		_, err := tx.Screen("c1")
		return err
	})
}
