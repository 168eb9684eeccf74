package chat

import (
	"sync"
	"time"

	"github.com/vttapp/companion/core"
)

// maxBudgetDevices bounds the devices the budget remembers; past it those
// whose bucket has refilled (idle for a while) are forgotten first.
const maxBudgetDevices = 4096

// Budget is a token bucket per device (or per address): the devices
// that post messages, the addresses that mint passes (access.go).
type Budget struct {
	mu      sync.Mutex
	Rate    float64 // tokens a second; 0 or less: no limit
	Burst   float64
	Now     func() time.Time
	Devices map[string]*Bucket
	// Refusal words the error: given the burst, the rate a second and the
	// seconds to wait.
	Refusal func(burst, rate, wait float64) error
}

type Bucket struct {
	tokens float64
	at     time.Time
}

func NewMessageBudget(rate float64, burst int, now func() time.Time) *Budget {
	if rate == 0 {
		rate = core.DefaultMessageRate
	}
	if burst <= 0 {
		burst = core.DefaultMessageBurst
	}
	return &Budget{Rate: rate, Burst: float64(burst), Now: now, Devices: map[string]*Bucket{},
		Refusal: func(burst, rate, wait float64) error {
			return core.RateLimitedf("too many messages from this device: at most %g at once and %g a second; wait %.0f s", burst, rate, wait)
		}}
}

// Take spends n messages of device's budget, or refuses them all
// (KindRateLimited) when it has fewer left. An empty device is not
// counted.
func (b *Budget) Take(device string, n int) error {
	if device == "" || b.Rate <= 0 || n <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.Now()
	bk := b.Devices[device]
	if bk == nil {
		if len(b.Devices) >= maxBudgetDevices {
			b.forgetIdleLocked(now)
		}
		bk = &Bucket{tokens: b.Burst, at: now}
		b.Devices[device] = bk
	}
	bk.tokens = min(b.Burst, bk.tokens+now.Sub(bk.at).Seconds()*b.Rate)
	bk.at = now
	if bk.tokens < float64(n) {
		wait := (float64(n) - bk.tokens) / b.Rate
		return b.Refusal(b.Burst, b.Rate, max(1, wait+0.5))
	}
	bk.tokens -= float64(n)
	return nil
}

// forgetIdleLocked drops the devices whose bucket is full by now (they
// would start afresh anyway); if none is, the oldest half.
func (b *Budget) forgetIdleLocked(now time.Time) {
	for k, bk := range b.Devices {
		if bk.tokens+now.Sub(bk.at).Seconds()*b.Rate >= b.Burst {
			delete(b.Devices, k)
		}
	}
	if len(b.Devices) < maxBudgetDevices {
		return
	}
	n := 0
	for k := range b.Devices {
		if n >= maxBudgetDevices/2 {
			break
		}
		delete(b.Devices, k)
		n++
	}
}
