package hub

import (
	"context"

	"github.com/vttapp/companion/core"
)

// cannotSpoilDrags are the events that cannot make a drag in progress
// unlawful: the live streams themselves and the log. Any other event (a
// token locked, a map changed, remote interaction turned off...) makes the
// hub sweep the drags in progress.
var cannotSpoilDrags = map[string]bool{
	core.EventTokenMoved: true, core.EventPointerUpdated: true, core.EventPointerMoved: true,
	core.EventClientConnected: true, core.EventClientDisconnected: true, core.EventClientUpdated: true,
	core.EventMessageCreated: true, core.EventMessagesUpdated: true, core.EventMessageDeleted: true,
	core.EventTrackedObjectCreated: true, core.EventTrackedObjectUpdated: true,
	core.EventTrackedObjectDeleted: true, core.EventTrackedObjectsUpdated: true,
	core.EventSystemPaused: true, core.EventApp: true,
}

// noteDragSpoilers asks the drag watcher for a sweep when events may have
// ended a drag's right to go on. It runs in the bus subscriber, under the
// service's lock: it reads one atomic and never blocks.
func (h *Hub) noteDragSpoilers(events []core.Event) {
	if h.drags.Active() == 0 {
		return
	}
	for _, e := range events {
		if !cannotSpoilDrags[e.Name] {
			select {
			case h.sweep <- struct{}{}:
			default: // a sweep is already due
			}
			return
		}
	}
}

// dragWatcher sweeps the drags when asked: a token locked or deleted
// mid-drag, or remote interaction turned off, ends the drag with block for
// everyone at once, without waiting for the dragger's next message.
func (h *Hub) dragWatcher() {
	for {
		select {
		case <-h.stop:
			return
		case <-h.sweep:
			ctx, cancel := context.WithTimeout(context.Background(), h.opts.HandlerTimeout)
			if err := h.drags.Sweep(ctx); err != nil {
				h.log.Error("websocket: checking the drags in progress failed", "err", err)
			}
			cancel()
		}
	}
}
