package engine

import (
	"sync"
	"time"

	"github.com/vttapp/companion/core"
)

// maxBudgetDevices bounds the devices the budget remembers; past it those
// whose bucket has refilled (idle for a while) are forgotten first.
const maxBudgetDevices = 4096

// budget is a token bucket per device (or per address): the devices
// that post messages, the addresses that mint passes (access.go).
type budget struct {
	mu      sync.Mutex
	rate    float64 // tokens a second; 0 or less: no limit
	burst   float64
	now     func() time.Time
	devices map[string]*bucket
	// refusal words the error: given the burst, the rate a second and the
	// seconds to wait.
	refusal func(burst, rate, wait float64) error
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newMessageBudget(rate float64, burst int, now func() time.Time) *budget {
	if rate == 0 {
		rate = core.DefaultMessageRate
	}
	if burst <= 0 {
		burst = core.DefaultMessageBurst
	}
	return &budget{rate: rate, burst: float64(burst), now: now, devices: map[string]*bucket{},
		refusal: func(burst, rate, wait float64) error {
			return core.RateLimitedf("too many messages from this device: at most %g at once and %g a second; wait %.0f s", burst, rate, wait)
		}}
}

// take spends n messages of device's budget, or refuses them all
// (KindRateLimited) when it has fewer left. An empty device is not
// counted.
func (b *budget) take(device string, n int) error {
	if device == "" || b.rate <= 0 || n <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	bk := b.devices[device]
	if bk == nil {
		if len(b.devices) >= maxBudgetDevices {
			b.forgetIdleLocked(now)
		}
		bk = &bucket{tokens: b.burst, at: now}
		b.devices[device] = bk
	}
	bk.tokens = min(b.burst, bk.tokens+now.Sub(bk.at).Seconds()*b.rate)
	bk.at = now
	if bk.tokens < float64(n) {
		wait := (float64(n) - bk.tokens) / b.rate
		return b.refusal(b.burst, b.rate, max(1, wait+0.5))
	}
	bk.tokens -= float64(n)
	return nil
}

// forgetIdleLocked drops the devices whose bucket is full by now (they
// would start afresh anyway); if none is, the oldest half.
func (b *budget) forgetIdleLocked(now time.Time) {
	for k, bk := range b.devices {
		if bk.tokens+now.Sub(bk.at).Seconds()*b.rate >= b.burst {
			delete(b.devices, k)
		}
	}
	if len(b.devices) < maxBudgetDevices {
		return
	}
	n := 0
	for k := range b.devices {
		if n >= maxBudgetDevices/2 {
			break
		}
		delete(b.devices, k)
		n++
	}
}
