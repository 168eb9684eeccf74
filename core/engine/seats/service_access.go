package seats

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
)

// Admit checks a credential a request on the public listener carries (a
// key or a pass; "" when it carries none) against the join key. With the
// key off every request is admitted as a player. A store that cannot be
// read admits nobody: the key may be on.
func (s *SeatsRoom) Admit(ctx context.Context, credential string) (core.Grant, bool) {
	if err := s.LoadAccess(ctx); err != nil {
		s.Log.Error("join key: cannot read it; refusing the request", "err", err)
		return core.Grant{}, false
	}
	g, ok := s.Access.Admit(credential)
	if ok {
		s.Access.MarkUsed(g.Pass, s.Now())
	}
	return g, ok
}

// StillAdmitted reports whether a grant Admit made still holds (the hub
// asks it of every connection after accessChanged).
func (s *SeatsRoom) StillAdmitted(g core.Grant) bool { return s.Access.StillAdmitted(g) }

// JoinStatus returns the join key as the game master reads it.
func (s *SeatsRoom) JoinStatus(ctx context.Context) (core.JoinStatus, error) {
	if err := s.LoadAccess(ctx); err != nil {
		return core.JoinStatus{}, err
	}
	return s.Access.Status(), nil
}

// SetJoinKey turns the join key on or off. Turning it on draws keys when
// there are none yet (the keys of an earlier time on stay, so the links
// printed then work again); every connection that joined while it was off
// is dropped and must come back through a link.
func (s *SeatsRoom) SetJoinKey(ctx context.Context, on bool) (core.JoinStatus, error) {
	return s.changeAccess(ctx, func(st *core.JoinAccess) {
		st.Enabled = on
		if on && (st.Key == "" || st.SpectatorKey == "") {
			st.DrawKeys()
		}
	})
}

// NewJoinKeys draws new keys and revokes every pass: everyone who joined
// with the old keys is dropped and comes back through the new links. It
// turns the key on.
func (s *SeatsRoom) NewJoinKeys(ctx context.Context) (core.JoinStatus, error) {
	return s.changeAccess(ctx, func(st *core.JoinAccess) {
		st.Enabled = true
		st.DrawKeys()
		st.Passes = nil
	})
}

// IssuePass gives a browser that opened a link with a key its own pass
// (routes set it as a cookie). Only a key's grant gets one: a pass is not
// traded for another. address is where the request comes from (its
// host); held is the pass the browser already holds, if any (its cookie),
// whose device the new pass joins. Minting is bounded per address
// (PassMintBurst, then one each PassMintEvery; loopback is not counted),
// and refused when every pass the game keeps is in use (addPass).
func (s *SeatsRoom) IssuePass(ctx context.Context, g core.Grant, address, held string) (string, error) {
	if g.Open || g.Pass != "" {
		return "", core.Invalidf("only a join key is exchanged for a pass")
	}
	if err := s.LoadAccess(ctx); err != nil {
		return "", err
	}
	key := core.AddressKey(address)
	if err := s.Access.MintBudget(s.Now).Take(key, 1); err != nil {
		return "", err
	}
	pass := core.RandomSecret(32)
	now := s.Now().UTC()
	_, err := s.changeAccessQuiet(ctx, func(st *core.JoinAccess) error {
		if !st.Enabled || st.KeyGeneration != g.KeyGeneration {
			return core.Conflictf("the join key changed: ask the game master for the new link")
		}
		device := core.NewID()
		if old := st.Pass(kernel.PassHash(held)); held != "" && old != nil && old.Device != "" {
			device = old.Device
		}
		return st.AddPass(core.JoinPass{Hash: kernel.PassHash(pass), Role: g.Role, Created: now, Address: key, Device: device},
			func(p core.JoinPass) bool { return s.Access.InUse(p, now) })
	})
	if err != nil {
		return "", err
	}
	return pass, nil
}

// SetPassRole is the game master changing the role of a pass (a
// spectator, or a player again): it holds for every request and
// connection that pass opens, until the game master changes it again.
// The hub gives its connections the new role.
func (s *SeatsRoom) SetPassRole(ctx context.Context, hash, role string) error {
	if role != core.ClientPlayer && role != core.ClientSpectator {
		return core.Invalidf("a pass is a player's or a spectator's, not '%s'", core.Clip(role))
	}
	_, err := s.changeAccessQuiet(ctx, func(st *core.JoinAccess) error {
		p := st.Pass(hash)
		if p == nil {
			return core.NotFoundf("this client's pass is no longer kept")
		}
		p.Role = role
		return nil
	})
	return err
}

// SetAddressSpectator makes every request and connection from an address
// (its host) a spectator's, or lifts it: the game master's word for a
// device that holds no pass (the join key off). Loopback, this machine,
// is never marked; it reports whether the address was.
func (s *SeatsRoom) SetAddressSpectator(address string, on bool) bool {
	key := core.AddressKey(address)
	if key == "" {
		return false
	}
	s.Access.Mu.Lock()
	defer s.Access.Mu.Unlock()
	if s.Access.Spectators == nil {
		s.Access.Spectators = map[string]bool{}
	}
	if on {
		s.Access.Spectators[key] = true
	} else {
		delete(s.Access.Spectators, key)
	}
	return true
}

// SpectatorAddress reports whether the game master made the address (its
// host) a spectator's (SetAddressSpectator).
func (s *SeatsRoom) SpectatorAddress(address string) bool {
	key := core.AddressKey(address)
	if key == "" {
		return false
	}
	s.Access.Mu.RLock()
	defer s.Access.Mu.RUnlock()
	return s.Access.Spectators[key]
}

// changeAccess stores a change of the join key and tells the hub
// (accessChanged), which drops who is no longer admitted.
func (s *SeatsRoom) changeAccess(ctx context.Context, change func(st *core.JoinAccess)) (core.JoinStatus, error) {
	return s.changeAccessEvent(ctx, func(st *core.JoinAccess) error { change(st); return nil }, true)
}

// changeAccessQuiet stores a change that drops nobody (a pass added).
func (s *SeatsRoom) changeAccessQuiet(ctx context.Context, change func(st *core.JoinAccess) error) (core.JoinStatus, error) {
	return s.changeAccessEvent(ctx, change, false)
}

func (s *SeatsRoom) changeAccessEvent(ctx context.Context, change func(st *core.JoinAccess) error, tell bool) (core.JoinStatus, error) {
	if err := s.LoadAccess(ctx); err != nil {
		return core.JoinStatus{}, err
	}
	var next core.JoinAccess
	err := s.WriteThen(ctx, func(tx core.Tx) ([]core.Event, error) {
		s.Access.Mu.RLock()
		next = s.Access.State.Clone()
		s.Access.Mu.RUnlock()
		if err := change(&next); err != nil {
			return nil, err
		}
		if err := tx.PutAccess(&next); err != nil {
			return nil, err
		}
		if !tell {
			return nil, nil
		}
		return []core.Event{{Name: core.EventAccessChanged, Data: redact.HostOnly(core.AccessChanged{Enabled: next.Enabled})}}, nil
	}, func() {
		s.Access.Mu.Lock()
		s.Access.State = next
		s.Access.Mu.Unlock()
	})
	if err != nil {
		return core.JoinStatus{}, err
	}
	return s.Access.Status(), nil
}
