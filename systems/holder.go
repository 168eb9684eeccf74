package systems

import (
	"sync/atomic"

	"github.com/vttapp/companion/core"
)

// Holder holds the current system and swaps it atomically on reload.
// Readers take Current() once per request and use that system throughout.
type Holder struct {
	cur atomic.Pointer[System]
}

// NewHolder returns a holder of s.
func NewHolder(s *System) *Holder {
	h := &Holder{}
	h.cur.Store(s)
	return h
}

// Current is the system in use.
func (h *Holder) Current() *System { return h.cur.Load() }

// Swap makes s current and returns the previous system. The previous one is
// not closed: requests may still be using it; its idle Lua states are
// released by Close, which the caller may call.
func (h *Holder) Swap(s *System) *System { return h.cur.Swap(s) }

// RulesNow is the current system, whose rules never change: the core takes
// it once per request (core.SwappableRules), so a reload in the middle of
// a write cannot mix two versions of a system.
func (h *Holder) RulesNow() core.Rules { return h.Current() }

// SystemID is the current system's id.
func (h *Holder) SystemID() string { return h.Current().SystemID() }

// IsUnique reports whether entities of kind are unique in the current system.
func (h *Holder) IsUnique(kind string) bool { return h.Current().IsUnique(kind) }

// Ranges lists kind's ranges in the current system.
func (h *Holder) Ranges(kind string) []string { return h.Current().Ranges(kind) }

// InitiativeAscending forwards to the current system (core.InitiativeSorter).
func (h *Holder) InitiativeAscending() bool { return h.Current().InitiativeAscending() }

// TurnStyle forwards to the current system (core.TurnStyler).
func (h *Holder) TurnStyle() string { return h.Current().TurnStyle() }

// HitPointRanges lists the current system's hit point ranges (core.RangeLister).
func (h *Holder) HitPointRanges() []string { return h.Current().HitPointRanges() }

var (
	_ core.RangeLister = (*Holder)(nil)
	_ core.RangeLister = (*System)(nil)
)

var (
	_ core.Rules          = (*Holder)(nil)
	_ core.SwappableRules = (*Holder)(nil)
	_ core.Rules          = (*System)(nil)
)
