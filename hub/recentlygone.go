package hub

import (
	"sync"
	"time"

	"github.com/vttapp/companion/core"
)

// goneFor is how long a closed connection's identity is kept for a kick:
// long enough for a game master to click a row the console listed before
// the device reconnected on a new channel, short enough that the list
// stays tiny.
const goneFor = time.Minute

// recentlyGone remembers, by channel, the seat and the pass (hashes) of
// player connections that closed in the last goneFor. A phone that lost
// its connection comes back on a new channel; the console's row still
// names the old one for a moment, and the game master's kick must reach
// the device, not answer "no client".
type recentlyGone struct {
	mu     sync.Mutex
	byChan map[int]goneClient
}

type goneClient struct {
	seat, pass, address string
	at                  time.Time
}

// remember records a closed connection that held a seat or a pass (one
// with neither cannot be told apart from any other device), and the
// address it came from.
func (g *recentlyGone) remember(channel int, seat, pass, address string, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for ch, c := range g.byChan {
		if now.Sub(c.at) >= goneFor {
			delete(g.byChan, ch)
		}
	}
	if seat == "" && pass == "" {
		return
	}
	if g.byChan == nil {
		g.byChan = map[int]goneClient{}
	}
	g.byChan[channel] = goneClient{seat: seat, pass: pass, address: address, at: now}
}

// lookup reports who a connection on channel was (its seat, its pass, its
// address) when it closed, if it closed less than goneFor ago.
func (g *recentlyGone) lookup(channel int, now time.Time) (core.KickTarget, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.byChan[channel]
	if !ok || now.Sub(c.at) >= goneFor {
		return core.KickTarget{}, false
	}
	return core.KickTarget{Seat: c.seat, Pass: c.pass, Address: c.address}, true
}
