package kernel

import (
	"github.com/vttapp/companion/core"
)

// Pinned is the kernel with the rules of one request. A request asks the
// system many questions (is this kind unique, which ranges does it keep in
// step, which way does initiative sort, what token does it place); a
// reload may swap the system between any two of them. So every service
// method pins the rules once, at its start, and everything it calls
// answers from that one snapshot: a write never mixes two versions of a
// system. The helpers that consult the rules have Pinned (or a room's own
// pinned type, which embeds it) as receiver, and Kernel keeps its rules in
// an unexported field only Pin reads, so an unpinned lookup does not
// compile outside this package.
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
