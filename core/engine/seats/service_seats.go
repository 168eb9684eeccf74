package seats

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
)

// Seats lists the primary campaign's seats as everyone reads them: which
// are free, who sits where (names only).
func (s *SeatsRoom) Seats(ctx context.Context) (*core.SeatList, error) {
	p := s.pin()
	var out *core.SeatList
	err := p.Store.View(ctx, func(tx core.Tx) error {
		t, err := p.SeatTable(tx)
		if err != nil {
			return err
		}
		out = t.List()
		return nil
	})
	return out, err
}

// HostSeats lists the seats for the game master, with the tokens each
// controls and the hash of its holder (for the hub only).
func (s *SeatsRoom) HostSeats(ctx context.Context) ([]core.HostSeat, error) {
	p := s.pin()
	var out []core.HostSeat
	err := p.Store.View(ctx, func(tx core.Tx) error {
		t, err := p.SeatTable(tx)
		if err != nil {
			return err
		}
		out = []core.HostSeat{}
		for _, e := range t.Characters {
			st := t.Seat(e.ID)
			out = append(out, core.HostSeat{SeatView: kernel.SeatView(e, st), Controls: append([]string{}, st.Controls...), MapID: st.MapID, Holder: st.Holder})
		}
		return nil
	})
	return out, err
}

// changeSeats runs a change of seats in one transaction and publishes the
// seat list after it; the index of held seats follows the commit.
func (s seatsPinned) changeSeats(ctx context.Context, change func(tx core.Tx, t *kernel.SeatTable) ([]*core.Seat, []core.Event, error)) error {
	var changed []*core.Seat
	return s.WriteThen(ctx, func(tx core.Tx) ([]core.Event, error) {
		t, err := s.SeatTable(tx)
		if err != nil {
			return nil, err
		}
		seats, events, err := change(tx, t)
		if err != nil {
			return nil, err
		}
		for _, st := range seats {
			if err := tx.PutSeat(st); err != nil {
				return nil, err
			}
			t.Stored[st.EntityID] = st
		}
		changed = seats
		if s.SeatListDue() { // else it goes out shortly, with the changes that follow (seatnews.go)
			events = append([]core.Event{{Name: core.EventSeatsUpdated, Data: t.List()}}, events...)
		}
		return events, nil
	}, func() { s.SeatsByHash.Set(changed...) })
}

// TakeSeat gives a free seat to a player who asks for it, under the name
// they give (their client's name when empty), and draws the seat token
// they keep: answered to them alone. A seat someone holds is refused, and
// so is a spectator or a display asking. Taking a seat frees the one the
// player held before.
func (s *SeatsRoom) TakeSeat(ctx context.Context, who core.Actor, seatID, player string) (*core.TakenSeat, error) {
	if err := who.MayHoldSeat(); err != nil {
		return nil, err
	}
	name, err := playerName(cmp.Or(strings.TrimSpace(player), who.Name))
	if err != nil {
		return nil, err
	}
	token := core.NewSeatToken()
	var out *core.TakenSeat
	err = s.pin().changeSeats(ctx, func(_ core.Tx, t *kernel.SeatTable) ([]*core.Seat, []core.Event, error) {
		e, err := t.Character(seatID)
		if err != nil {
			return nil, nil, err
		}
		st := t.Seat(e.ID)
		if st.Taken() && st.Holder != who.Seat {
			return nil, nil, core.Conflictf("%s is taken by %s", e.Name, cmp.Or(st.Player, "another player"))
		}
		var changed []*core.Seat
		if old := t.HeldBy(who.Seat); old != nil && old.EntityID != e.ID {
			changed = append(changed, old.Freed())
		}
		next := *st
		next.Holder, next.Player, next.Since, next.TakenBy = core.SeatHash(token), name, s.Now().UTC(), who.Device
		out = &core.TakenSeat{Seat: kernel.SeatView(e, &next), SeatToken: token}
		return append(changed, &next), nil, nil
	})
	return out, err
}

// ResumeSeat finds the seat a seat token holds (a player coming back after
// a reload or a restart). A token whose seat was freed opens nothing.
func (s *SeatsRoom) ResumeSeat(ctx context.Context, who core.Actor, token string) (*core.TakenSeat, error) {
	if err := who.MayHoldSeat(); err != nil {
		return nil, err
	}
	return s.seatByHash(ctx, core.SeatHash(token))
}

// MySeat returns the seat the actor's seat token holds, nil when none.
func (s *SeatsRoom) MySeat(ctx context.Context, who core.Actor) (*core.SeatView, error) {
	if who.Seat == "" {
		return nil, nil
	}
	taken, err := s.seatByHash(ctx, who.Seat)
	if core.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &taken.Seat, nil
}

func (s *SeatsRoom) seatByHash(ctx context.Context, hash string) (*core.TakenSeat, error) {
	p := s.pin()
	var out *core.TakenSeat
	err := p.Store.View(ctx, func(tx core.Tx) error {
		t, err := p.SeatTable(tx)
		if err != nil {
			return err
		}
		st := t.HeldBy(hash)
		if st == nil {
			return core.NotFoundf("this seat token holds no seat (the seat was freed): pick a seat again")
		}
		e, _ := t.Character(st.EntityID)
		out = &core.TakenSeat{Seat: kernel.SeatView(e, st)}
		return nil
	})
	return out, err
}

// LeaveSeat frees the seat the actor holds.
func (s *SeatsRoom) LeaveSeat(ctx context.Context, who core.Actor) error {
	return s.pin().changeSeats(ctx, func(_ core.Tx, t *kernel.SeatTable) ([]*core.Seat, []core.Event, error) {
		st := t.HeldBy(who.Seat)
		if st == nil {
			return nil, nil, core.NotFoundf("you hold no seat")
		}
		return []*core.Seat{st.Freed()}, nil, nil
	})
}

// AssignSeat is the game master giving a seat to a player, whoever held it
// before (their token opens nothing any more): it draws the token the hub
// hands to that player's connection. who is that player (their device; the
// seat they held before, freed in the same change).
func (s *SeatsRoom) AssignSeat(ctx context.Context, seatID, player string, who core.Actor) (*core.TakenSeat, error) {
	name, err := playerName(player)
	if err != nil {
		return nil, err
	}
	token := core.NewSeatToken()
	var out *core.TakenSeat
	err = s.pin().changeSeats(ctx, func(_ core.Tx, t *kernel.SeatTable) ([]*core.Seat, []core.Event, error) {
		e, err := t.Character(seatID)
		if err != nil {
			return nil, nil, err
		}
		var changed []*core.Seat
		if old := t.HeldBy(who.Seat); old != nil && old.EntityID != e.ID {
			changed = append(changed, old.Freed())
		}
		next := *t.Seat(e.ID)
		next.Holder, next.Player, next.Since, next.TakenBy = core.SeatHash(token), name, s.Now().UTC(), who.Device
		out = &core.TakenSeat{Seat: kernel.SeatView(e, &next), SeatToken: token}
		return append(changed, &next), nil, nil
	})
	return out, err
}

// FreeSeat is the game master freeing a seat: whoever held it holds
// nothing now.
func (s *SeatsRoom) FreeSeat(ctx context.Context, seatID string) error {
	return s.pin().changeSeats(ctx, func(_ core.Tx, t *kernel.SeatTable) ([]*core.Seat, []core.Event, error) {
		e, err := t.Character(seatID)
		if err != nil {
			return nil, nil, err
		}
		return []*core.Seat{t.Seat(e.ID).Freed()}, nil, nil
	})
}

// SetSeatControls sets the tokens a seat may drag besides its character's
// own in remote interaction "token" (a familiar, a mount): tokens of the
// campaign's maps. An empty list takes them all back.
func (s *SeatsRoom) SetSeatControls(ctx context.Context, seatID string, tokenIDs []string) error {
	if len(tokenIDs) > core.MaxSeatControls {
		return core.Invalidf("a seat controls at most %d tokens", core.MaxSeatControls)
	}
	return s.pin().changeSeats(ctx, func(tx core.Tx, t *kernel.SeatTable) ([]*core.Seat, []core.Event, error) {
		e, err := t.Character(seatID)
		if err != nil {
			return nil, nil, err
		}
		var ids []string
		for _, id := range tokenIDs {
			if _, err := kernel.TokenByID(tx, id); err != nil {
				return nil, nil, err
			}
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		next := *t.Seat(e.ID)
		next.Controls = ids
		return []*core.Seat{&next}, nil, nil
	})
}

// KickPlan is what Kick would end now, without ending it: the hub closes
// those connections first, with the kick's code.
func (s *SeatsRoom) KickPlan(ctx context.Context, k core.KickTarget) (*core.Kicked, error) {
	if err := s.LoadAccess(ctx); err != nil {
		return nil, err
	}
	p := s.pin()
	s.Access.Mu.RLock()
	st := s.Access.State.Clone()
	s.Access.Mu.RUnlock()
	out := &core.Kicked{Passes: st.DevicePasses(k.Pass, core.AddressKey(k.Address)), NewKeys: st.Enabled}
	err := p.ViewSeats(ctx, func(t *kernel.SeatTable) {
		for _, seat := range t.DeviceSeats(k, out.Passes) {
			out.Seats = append(out.Seats, seat.Holder)
		}
	})
	return out, err
}

// Kick is the game master sending a device away: every seat it holds is
// freed and, with the join key on, every pass it holds is revoked (the
// passes it minted from its address, or as the same device: KickTarget)
// and new keys are drawn (new links), so that it cannot come back with
// the link it had; every other device keeps its pass and stays.
func (s *SeatsRoom) Kick(ctx context.Context, k core.KickTarget) (*core.Kicked, error) {
	if err := s.LoadAccess(ctx); err != nil {
		return nil, err
	}
	p := s.pin()
	out := &core.Kicked{}
	var freed []*core.Seat
	var next core.JoinAccess
	err := p.WriteThen(ctx, func(tx core.Tx) ([]core.Event, error) {
		var events []core.Event
		s.Access.Mu.RLock()
		next = s.Access.State.Clone()
		s.Access.Mu.RUnlock()
		out.Passes = next.DevicePasses(k.Pass, core.AddressKey(k.Address))
		t, err := p.SeatTable(tx)
		if err != nil && !core.IsNotFound(err) {
			return nil, err
		}
		if t != nil {
			for _, st := range t.DeviceSeats(k, out.Passes) {
				f := st.Freed()
				if err := tx.PutSeat(f); err != nil {
					return nil, err
				}
				out.Seats = append(out.Seats, st.Holder)
				t.Stored[f.EntityID] = f
				freed = append(freed, f)
			}
			if len(freed) > 0 && s.SeatListDue() {
				events = append(events, core.Event{Name: core.EventSeatsUpdated, Data: t.List()})
			}
		}
		if next.Enabled {
			out.NewKeys = true
			for _, hash := range out.Passes {
				next.Revoke(hash)
			}
			next.DrawKeys()
			if err := tx.PutAccess(&next); err != nil {
				return nil, err
			}
			events = append(events, core.Event{Name: core.EventAccessChanged, Data: redact.HostOnly(core.AccessChanged{Enabled: true})})
		}
		return events, nil
	}, func() {
		s.SeatsByHash.Set(freed...)
		if out.NewKeys {
			s.Access.Mu.Lock()
			s.Access.State = next
			s.Access.Mu.Unlock()
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
