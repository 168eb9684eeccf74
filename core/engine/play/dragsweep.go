package play

import (
	"context"
	"time"

	"github.com/vttapp/companion/core"
)

// Drags that lose their right to go on. A drag is checked at each of its
// messages; between two of them, a change anyone makes (the game master
// locks or hides the token, takes its map off the player screen, turns
// remote interaction off or changes its mode) may end that right. So the
// service tells its tracker of every batch of events it publishes
// (the kernel's Write and Publish), and after any event that may end a
// drag the tracker sweeps its drags, without waiting for the dragger's
// next message: a drag everyone saw ends with block for everyone at once.

// MayEndDrags reports whether any of events may end a drag in progress:
// any event whose row in EventTable does not say it keeps drags (a pause
// does end them: paused, players move nothing), or that has no row. A
// sweep that finds every drag lawful changes nothing, so an event that
// need not sweep costs a sweep, never a wrong block.
func MayEndDrags(events []core.Event) bool {
	for _, e := range events {
		if spec := core.EventSpecOf(e.Name); spec == nil || !spec.KeepsDrags {
			return true
		}
	}
	return false
}

// dragSweepTimeout bounds one sweep's work (its store reads and blocks).
const dragSweepTimeout = 10 * time.Second

// Published is told of each batch of events the service publishes. It
// runs under the service's commit lock, so it never blocks: it reads one
// atomic, and when a drag is in progress and an event may end it, asks
// for a sweep, which runs outside the lock (it reads the store and
// publishes).
func (d *Drags) Published(events []core.Event) {
	if d.Active() == 0 || !MayEndDrags(events) {
		return
	}
	d.sweepMu.Lock()
	defer d.sweepMu.Unlock()
	if d.sweeping {
		d.sweepAgain = true // the sweep under way may have read the store before this change
		return
	}
	d.sweeping = true
	go d.sweepUntilQuiet()
}

// sweepUntilQuiet sweeps, and again while changes came during the last
// sweep; one goroutine at a time, none when no drag is in progress.
func (d *Drags) sweepUntilQuiet() {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), dragSweepTimeout)
		if err := d.Sweep(ctx); err != nil {
			d.svc.Log.Error("drags: checking the drags in progress failed", "err", err)
		}
		cancel()
		d.sweepMu.Lock()
		if !d.sweepAgain {
			d.sweeping = false
			d.sweepMu.Unlock()
			return
		}
		d.sweepAgain = false
		d.sweepMu.Unlock()
	}
}

// Sweep ends with block, for every client, each drag the host no longer
// allows: all of them when remote interaction is off or the game paused, else those whose
// token was deleted, locked, hidden or taken off the player screen, or
// that the interaction mode no longer lets their client move. The game
// master's drags answer to none of these.
func (d *Drags) Sweep(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.recount()
	settings := d.svc.LiveState.Settings()
	remote := settings.RemoteInteraction && !settings.Paused
	for id, own := range d.active {
		if own.host {
			continue // the game master's drags answer to no setting
		}
		if remote {
			tok, shown, err := d.svc.dragToken(ctx, id)
			if err != nil && !core.IsNotFound(err) {
				return err
			}
			if err == nil && shown && !tok.Locked && d.mayMove(own.source, tok) {
				continue
			}
		}
		delete(d.active, id)
		src := core.EventSource{ID: own.source}
		if err := d.blockAll(ctx, core.Movement{ID: id, Source: &src}, own); err != nil {
			return err
		}
	}
	return nil
}
