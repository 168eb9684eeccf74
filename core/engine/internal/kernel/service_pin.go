package kernel

import (
	"github.com/vttapp/companion/core"
)

// Pinned is the service with the rules of one request. A request asks the
// system many questions (is this kind unique, which ranges does it keep in
// step, which way does initiative sort, what token does it place); a
// reload may swap the system between any two of them. So every service
// method pins the rules once, at its start, and everything it calls
// answers from that one snapshot: a write never mixes two versions of a
// system. The helpers that consult the rules have pinned as receiver, and
// Service keeps its rules in a field only pin reads, so an unpinned
// lookup does not compile.
type Pinned struct {
	*Kernel
	Rules core.Rules // nil when the service runs without a system
}

// Pin takes the rules snapshot for one request.
func (s *Kernel) Pin() Pinned {
	rules := s.ruleSource
	if swappable, ok := rules.(core.SwappableRules); ok {
		rules = swappable.RulesNow()
	}
	return Pinned{Kernel: s, Rules: rules}
}
