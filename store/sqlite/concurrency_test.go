package sqlite

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// A View runs while an Update is open, sees the last committed state and
// does not wait for the writer.
func TestViewDoesNotWaitForUpdate(t *testing.T) {
	s := newStore(t)
	put(t, s, testEntity("e1", "monster", "Goblin", ""))

	written := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Update(bg, func(tx core.Tx) error {
			e := testEntity("e1", "monster", "Hobgoblin", "")
			if err := tx.PutEntity(e); err != nil {
				return err
			}
			close(written)
			<-release
			return nil
		})
	}()
	<-written

	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	err := s.View(ctx, func(tx core.Tx) error {
		e, err := tx.Entity("e1")
		if err != nil {
			return err
		}
		if e.Name != "Goblin" || e.Revision != 1 {
			t.Errorf("View saw %q revision %d while the Update was open, want the committed Goblin 1", e.Name, e.Revision)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("View during an open Update: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx core.Tx) error {
		e, err := tx.Entity("e1")
		if err == nil && e.Name != "Hobgoblin" {
			t.Fatalf("after commit View sees %q", e.Name)
		}
		return err
	})
}

// Updates are serialised: concurrent read-modify-write cycles lose nothing.
func TestUpdatesAreSerialised(t *testing.T) {
	s := newStore(t)
	e := testEntity("counter", "thing", "Counter", "")
	e.Data = core.Object{"n": 0.0}
	put(t, s, e)

	const workers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				err := s.Update(bg, func(tx core.Tx) error {
					e, err := tx.Entity("counter")
					if err != nil {
						return err
					}
					e.Data["n"] = e.Data["n"].(float64) + 1
					return tx.PutEntity(e)
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	view(t, s, func(tx core.Tx) error {
		e, err := tx.Entity("counter")
		if err != nil {
			return err
		}
		if n := e.Data["n"].(float64); n != workers*each || e.Revision != workers*each+1 {
			t.Fatalf("counter %v revision %d, want %d and %d", n, e.Revision, workers*each, workers*each+1)
		}
		return nil
	})
}

// Readers running in parallel with a writer always see whole transactions:
// the writer keeps two entities and a token equal in every commit.
func TestParallelViewsSeeWholeTransactions(t *testing.T) {
	s := newStore(t)
	put(t, s, testMap("map1", ""))
	write := func(i int) error {
		return s.Update(bg, func(tx core.Tx) error {
			for _, id := range []string{"a", "b"} {
				e := testEntity(id, "thing", fmt.Sprint(i), "")
				if err := tx.PutEntity(e); err != nil {
					return err
				}
			}
			tok := testToken("t", "map1")
			tok.X = float64(i)
			return tx.PutToken(tok)
		})
	}
	if err := write(0); err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var readers sync.WaitGroup
	var mu sync.Mutex
	reads := 0
	for r := 0; r < 4; r++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				err := s.View(bg, func(tx core.Tx) error {
					a, err := tx.Entity("a")
					if err != nil {
						return err
					}
					b, err := tx.Entity("b")
					if err != nil {
						return err
					}
					tok, err := tx.Token("t")
					if err != nil {
						return err
					}
					if a.Name != b.Name || a.Name != fmt.Sprint(tok.X) || a.Revision != b.Revision {
						return fmt.Errorf("torn read: a=%s/%d b=%s/%d token x=%v", a.Name, a.Revision, b.Name, b.Revision, tok.X)
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				reads++
				mu.Unlock()
			}
		}()
	}
	for i := 1; i <= 150; i++ {
		if err := write(i); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	readers.Wait()
	if reads == 0 {
		t.Fatal("no View completed while the writer ran")
	}
	t.Logf("%d views during 150 updates", reads)
}
