package play

// Drags returns the service's drag tracker: the hub hands it every
// tokenMoved, the host console its veto.
func (s *PlayRoom) Drags() *Drags { return s.drags }
