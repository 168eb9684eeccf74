package core

import "context"

// AccessChanged is the data of accessChanged.
type AccessChanged struct {
	Enabled bool `json:"enabled"`
}

// loadAccess reads the join key's state from the store once.
func (s *Service) loadAccess(ctx context.Context) error {
	s.access.mu.RLock()
	loaded := s.access.loaded
	s.access.mu.RUnlock()
	if loaded {
		return nil
	}
	s.access.loadMu.Lock()
	defer s.access.loadMu.Unlock()
	var st *JoinAccess
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		st, err = tx.Access()
		return err
	})
	if err != nil {
		return err
	}
	s.access.mu.Lock()
	if !s.access.loaded {
		s.access.state, s.access.loaded = *st, true
	}
	s.access.mu.Unlock()
	return nil
}

// Admit checks a credential a request on the public listener carries (a
// key or a pass; "" when it carries none) against the join key. With the
// key off every request is admitted as a player. A store that cannot be
// read admits nobody: the key may be on.
func (s *Service) Admit(ctx context.Context, credential string) (Grant, bool) {
	if err := s.loadAccess(ctx); err != nil {
		s.log.Error("join key: cannot read it; refusing the request", "err", err)
		return Grant{}, false
	}
	return s.access.admit(credential)
}

// StillAdmitted reports whether a grant Admit made still holds (the hub
// asks it of every connection after accessChanged).
func (s *Service) StillAdmitted(g Grant) bool { return s.access.stillAdmitted(g) }

// JoinKeyOn reports whether the join key is on; then players change only
// their own character's editable fields (seatrights.go).
func (s *Service) JoinKeyOn(ctx context.Context) bool {
	if err := s.loadAccess(ctx); err != nil {
		return true // the strict side when in doubt
	}
	return s.access.enabled()
}

// JoinStatus returns the join key as the game master reads it.
func (s *Service) JoinStatus(ctx context.Context) (JoinStatus, error) {
	if err := s.loadAccess(ctx); err != nil {
		return JoinStatus{}, err
	}
	return s.access.status(), nil
}

// SetJoinKey turns the join key on or off. Turning it on draws keys when
// there are none yet (the keys of an earlier time on stay, so the links
// printed then work again); every connection that joined while it was off
// is dropped and must come back through a link.
func (s *Service) SetJoinKey(ctx context.Context, on bool) (JoinStatus, error) {
	return s.changeAccess(ctx, func(st *JoinAccess) {
		st.Enabled = on
		if on && (st.Key == "" || st.SpectatorKey == "") {
			st.drawKeys()
		}
	})
}

// NewJoinKeys draws new keys and revokes every pass: everyone who joined
// with the old keys is dropped and comes back through the new links. It
// turns the key on.
func (s *Service) NewJoinKeys(ctx context.Context) (JoinStatus, error) {
	return s.changeAccess(ctx, func(st *JoinAccess) {
		st.Enabled = true
		st.drawKeys()
		st.Passes = nil
	})
}

// IssuePass gives a browser that opened a link with a key its own pass
// (routes set it as a cookie). Only a key's grant gets one: a pass is not
// traded for another.
func (s *Service) IssuePass(ctx context.Context, g Grant) (string, error) {
	if g.Open || g.Pass != "" {
		return "", Invalidf("only a join key is exchanged for a pass")
	}
	pass := randomSecret(32)
	_, err := s.changeAccessQuiet(ctx, func(st *JoinAccess) error {
		if !st.Enabled || st.KeyGeneration != g.KeyGeneration {
			return Conflictf("the join key changed: ask the game master for the new link")
		}
		st.addPass(JoinPass{Hash: passHash(pass), Role: g.Role, Created: s.now().UTC()})
		return nil
	})
	if err != nil {
		return "", err
	}
	return pass, nil
}

// changeAccess stores a change of the join key and tells the hub
// (accessChanged), which drops who is no longer admitted.
func (s *Service) changeAccess(ctx context.Context, change func(st *JoinAccess)) (JoinStatus, error) {
	return s.changeAccessEvent(ctx, func(st *JoinAccess) error { change(st); return nil }, true)
}

// changeAccessQuiet stores a change that drops nobody (a pass added).
func (s *Service) changeAccessQuiet(ctx context.Context, change func(st *JoinAccess) error) (JoinStatus, error) {
	return s.changeAccessEvent(ctx, change, false)
}

func (s *Service) changeAccessEvent(ctx context.Context, change func(st *JoinAccess) error, tell bool) (JoinStatus, error) {
	if err := s.loadAccess(ctx); err != nil {
		return JoinStatus{}, err
	}
	var next JoinAccess
	err := s.writeThen(ctx, func(tx Tx) ([]Event, error) {
		s.access.mu.RLock()
		next = s.access.state.clone()
		s.access.mu.RUnlock()
		if err := change(&next); err != nil {
			return nil, err
		}
		if err := tx.PutAccess(&next); err != nil {
			return nil, err
		}
		if !tell {
			return nil, nil
		}
		return []Event{{Name: EventAccessChanged, Data: HostOnly(AccessChanged{Enabled: next.Enabled})}}, nil
	}, func() {
		s.access.mu.Lock()
		s.access.state = next
		s.access.mu.Unlock()
	})
	if err != nil {
		return JoinStatus{}, err
	}
	return s.access.status(), nil
}
