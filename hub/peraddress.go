package hub

import (
	"net/netip"
	"sync"
)

// DefaultMaxConnectionsPerAddress caps the WebSocket connections from one
// remote address (Options.MaxConnectionsPerAddress, flag
// --max-clients-per-address). A table has a few devices per person, each
// with its own address; 32 from one address is a misbehaving or hostile
// client, which without this cap could take every one of the
// MaxConnections slots and lock the players out.
const DefaultMaxConnectionsPerAddress = 32

// addressSlots counts the live connections of each remote address.
//
// Loopback addresses are not counted: they are this machine (the game
// master's own browser, a table-top display driven by it, local tools and
// the tests, which open hundreds of clients from 127.0.0.1), never a
// player's device, and the global MaxConnections still bounds them.
type addressSlots struct {
	mu sync.Mutex
	n  map[string]int
}

func exemptAddress(address string) bool {
	ip, err := netip.ParseAddr(address)
	return err == nil && ip.Unmap().IsLoopback()
}

// take admits one more connection from address under limit (<= 0: none).
func (a *addressSlots) take(address string, limit int) bool {
	if limit <= 0 || exemptAddress(address) {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[string]int{}
	}
	if a.n[address] >= limit {
		return false
	}
	a.n[address]++
	return true
}

// release gives back a slot taken by take.
func (a *addressSlots) release(address string, limit int) {
	if limit <= 0 || exemptAddress(address) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n[address] <= 1 {
		delete(a.n, address)
		return
	}
	a.n[address]--
}
