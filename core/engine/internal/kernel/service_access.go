package kernel

import (
	"context"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
)

// LoadAccess reads the join key's state from the store once.
func (s *Kernel) LoadAccess(ctx context.Context) error {
	s.Access.Mu.RLock()
	loaded := s.Access.loaded
	s.Access.Mu.RUnlock()
	if loaded {
		return nil
	}
	s.Access.loadMu.Lock()
	defer s.Access.loadMu.Unlock()
	var st *core.JoinAccess
	err := s.Store.View(ctx, func(tx core.Tx) error {
		var err error
		st, err = tx.Access()
		return err
	})
	if err != nil {
		return err
	}
	s.Access.Mu.Lock()
	if !s.Access.loaded {
		s.Access.State, s.Access.loaded = *st, true
		// Every pass counts as used now: what was in use before a restart
		// is not known, and none may be forgotten for it.
		for _, p := range st.Passes {
			s.Access.MarkUsed(p.Hash, s.Now())
		}
	}
	s.Access.Mu.Unlock()
	return nil
}

// JoinKeyOn reports whether the join key is on; then players change only
// their own character's editable fields (seatrights.go).
func (s *Kernel) JoinKeyOn(ctx context.Context) bool {
	if err := s.LoadAccess(ctx); err != nil {
		return true // the strict side when in doubt
	}
	return s.Access.enabled()
}

// MintBudget is the per-address budget of passes, made on first use.
func (a *access) MintBudget(now func() time.Time) *chat.Budget {
	a.usedMu.Lock()
	defer a.usedMu.Unlock()
	if a.mints == nil {
		a.mints = &chat.Budget{Rate: 1 / core.PassMintEvery.Seconds(), Burst: core.PassMintBurst, Now: now, Devices: map[string]*chat.Bucket{},
			Refusal: func(burst, _, wait float64) error {
				return core.RateLimitedf("too many passes asked for from this address: at most %g at once, then one a minute; wait %.0f s", burst, wait)
			}}
	}
	return a.mints
}
