package play

import (
	"github.com/vttapp/companion/core"
)

// mayMove reports whether the client from may drag tok. The caller holds
// d.mu.
func (d *Drags) mayMove(from string, tok *core.Token) bool {
	return d.svc.ActorMayMove(d.actors[from], tok)
}

// SetActor records who a connection is (its role and the seat token hash
// it presented), for its drags. The hub calls it when the connection
// registers, takes or leaves a seat, or changes role; Release forgets it.
func (d *Drags) SetActor(clientID string, who core.Actor) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.actors[clientID] = who
}
