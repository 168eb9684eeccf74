package engine

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/vttapp/companion/core/redact"

	"github.com/vttapp/companion/core"
)

// seatCandidates lists the characters of a campaign that are seats: the
// entities of a unique kind it owns, and those its combatants stand for,
// by name.
func (s pinned) seatCandidates(tx core.Tx, campaignID string) ([]*core.Entity, error) {
	if s.rules == nil {
		return nil, nil
	}
	owned, err := tx.Entities(core.EntityQuery{Owner: campaignID})
	if err != nil {
		return nil, err
	}
	var out []*core.Entity
	seen := map[string]bool{}
	for _, e := range owned {
		if s.rules.IsUnique(e.Kind) && !seen[e.ID] {
			seen[e.ID] = true
			out = append(out, e)
		}
	}
	combatants, err := tx.Combatants(campaignID)
	if err != nil {
		return nil, err
	}
	for _, c := range combatants {
		if c.EntityID == "" || seen[c.EntityID] || !s.rules.IsUnique(c.EntityType) {
			continue
		}
		e, err := tx.Entity(c.EntityID)
		if core.IsNotFound(err) {
			continue // links are soft
		}
		if err != nil {
			return nil, err
		}
		if s.rules.IsUnique(e.Kind) {
			seen[e.ID] = true
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b *core.Entity) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// seatTable is the primary campaign's seats as they stand in one
// transaction: the characters and what is stored of their seats.
type seatTable struct {
	campaign   *core.Campaign
	characters []*core.Entity
	stored     map[string]*core.Seat // by character id
}

func (s pinned) seatTable(tx core.Tx) (*seatTable, error) {
	camp, err := s.primaryCampaign(tx)
	if err != nil {
		return nil, err
	}
	chars, err := s.seatCandidates(tx, camp.ID)
	if err != nil {
		return nil, err
	}
	rows, err := tx.Seats(camp.ID)
	if err != nil {
		return nil, err
	}
	stored := map[string]*core.Seat{}
	for _, r := range rows {
		stored[r.EntityID] = r
	}
	return &seatTable{campaign: camp, characters: chars, stored: stored}, nil
}

// character returns the seat's character, or not found.
func (t *seatTable) character(id string) (*core.Entity, error) {
	for _, e := range t.characters {
		if e.ID == id {
			return e, nil
		}
	}
	return nil, core.NotFoundf("no seat '%s': the seats are the player characters of the campaign", core.Clip(id))
}

// seat returns the stored seat of a character (a free one, not yet stored,
// when none).
func (t *seatTable) seat(id string) *core.Seat {
	if st := t.stored[id]; st != nil {
		return st
	}
	return &core.Seat{EntityID: id, Campaign: t.campaign.ID}
}

// heldBy returns the seat a token hash holds, nil when none.
func (t *seatTable) heldBy(hash string) *core.Seat {
	if hash == "" {
		return nil
	}
	for _, st := range t.stored {
		if st.Holder == hash {
			if _, err := t.character(st.EntityID); err == nil {
				return st
			}
		}
	}
	return nil
}

func seatView(e *core.Entity, st *core.Seat) core.SeatView {
	v := core.SeatView{ID: e.ID, Name: e.Name, Kind: e.Kind, Image: e.Image}
	if st.Taken() {
		v.Taken, v.Player = true, st.Player
	}
	return v
}

// list is the public seat list.
func (t *seatTable) list() *core.SeatList {
	out := &core.SeatList{Seats: []core.SeatView{}}
	for _, e := range t.characters {
		out.Seats = append(out.Seats, seatView(e, t.seat(e.ID)))
	}
	return out
}

// viewSeats reads the primary campaign's seats in a read transaction;
// without a primary campaign there are none (read is not called).
func (s pinned) viewSeats(ctx context.Context, read func(t *seatTable)) error {
	return s.store.View(ctx, func(tx core.Tx) error {
		t, err := s.seatTable(tx)
		if core.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		read(t)
		return nil
	})
}

// Seats lists the primary campaign's seats as everyone reads them: which
// are free, who sits where (names only).
func (s *seatsRoom) Seats(ctx context.Context) (*core.SeatList, error) {
	p := s.pin()
	var out *core.SeatList
	err := p.store.View(ctx, func(tx core.Tx) error {
		t, err := p.seatTable(tx)
		if err != nil {
			return err
		}
		out = t.list()
		return nil
	})
	return out, err
}

// HostSeats lists the seats for the game master, with the tokens each
// controls and the hash of its holder (for the hub only).
func (s *seatsRoom) HostSeats(ctx context.Context) ([]core.HostSeat, error) {
	p := s.pin()
	var out []core.HostSeat
	err := p.store.View(ctx, func(tx core.Tx) error {
		t, err := p.seatTable(tx)
		if err != nil {
			return err
		}
		out = []core.HostSeat{}
		for _, e := range t.characters {
			st := t.seat(e.ID)
			out = append(out, core.HostSeat{SeatView: seatView(e, st), Controls: append([]string{}, st.Controls...), MapID: st.MapID, Holder: st.Holder})
		}
		return nil
	})
	return out, err
}

// changeSeats runs a change of seats in one transaction and publishes the
// seat list after it; the index of held seats follows the commit.
func (s seatsPinned) changeSeats(ctx context.Context, change func(tx core.Tx, t *seatTable) ([]*core.Seat, []core.Event, error)) error {
	var changed []*core.Seat
	return s.writeThen(ctx, func(tx core.Tx) ([]core.Event, error) {
		t, err := s.seatTable(tx)
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
			t.stored[st.EntityID] = st
		}
		changed = seats
		if s.seatListDue() { // else it goes out shortly, with the changes that follow (seatnews.go)
			events = append([]core.Event{{Name: core.EventSeatsUpdated, Data: t.list()}}, events...)
		}
		return events, nil
	}, func() { s.seatsByHash.set(changed...) })
}

// TakeSeat gives a free seat to a player who asks for it, under the name
// they give (their client's name when empty), and draws the seat token
// they keep: answered to them alone. A seat someone holds is refused, and
// so is a spectator or a display asking. Taking a seat frees the one the
// player held before.
func (s *seatsRoom) TakeSeat(ctx context.Context, who core.Actor, seatID, player string) (*core.TakenSeat, error) {
	if err := who.MayHoldSeat(); err != nil {
		return nil, err
	}
	name, err := playerName(cmp.Or(strings.TrimSpace(player), who.Name))
	if err != nil {
		return nil, err
	}
	token := core.NewSeatToken()
	var out *core.TakenSeat
	err = s.pin().changeSeats(ctx, func(_ core.Tx, t *seatTable) ([]*core.Seat, []core.Event, error) {
		e, err := t.character(seatID)
		if err != nil {
			return nil, nil, err
		}
		st := t.seat(e.ID)
		if st.Taken() && st.Holder != who.Seat {
			return nil, nil, core.Conflictf("%s is taken by %s", e.Name, cmp.Or(st.Player, "another player"))
		}
		var changed []*core.Seat
		if old := t.heldBy(who.Seat); old != nil && old.EntityID != e.ID {
			changed = append(changed, old.Freed())
		}
		next := *st
		next.Holder, next.Player, next.Since, next.TakenBy = core.SeatHash(token), name, s.now().UTC(), who.Device
		out = &core.TakenSeat{Seat: seatView(e, &next), SeatToken: token}
		return append(changed, &next), nil, nil
	})
	return out, err
}

// ResumeSeat finds the seat a seat token holds (a player coming back after
// a reload or a restart). A token whose seat was freed opens nothing.
func (s *seatsRoom) ResumeSeat(ctx context.Context, who core.Actor, token string) (*core.TakenSeat, error) {
	if err := who.MayHoldSeat(); err != nil {
		return nil, err
	}
	return s.seatByHash(ctx, core.SeatHash(token))
}

// MySeat returns the seat the actor's seat token holds, nil when none.
func (s *seatsRoom) MySeat(ctx context.Context, who core.Actor) (*core.SeatView, error) {
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

func (s *seatsRoom) seatByHash(ctx context.Context, hash string) (*core.TakenSeat, error) {
	p := s.pin()
	var out *core.TakenSeat
	err := p.store.View(ctx, func(tx core.Tx) error {
		t, err := p.seatTable(tx)
		if err != nil {
			return err
		}
		st := t.heldBy(hash)
		if st == nil {
			return core.NotFoundf("this seat token holds no seat (the seat was freed): pick a seat again")
		}
		e, _ := t.character(st.EntityID)
		out = &core.TakenSeat{Seat: seatView(e, st)}
		return nil
	})
	return out, err
}

// LeaveSeat frees the seat the actor holds.
func (s *seatsRoom) LeaveSeat(ctx context.Context, who core.Actor) error {
	return s.pin().changeSeats(ctx, func(_ core.Tx, t *seatTable) ([]*core.Seat, []core.Event, error) {
		st := t.heldBy(who.Seat)
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
func (s *seatsRoom) AssignSeat(ctx context.Context, seatID, player string, who core.Actor) (*core.TakenSeat, error) {
	name, err := playerName(player)
	if err != nil {
		return nil, err
	}
	token := core.NewSeatToken()
	var out *core.TakenSeat
	err = s.pin().changeSeats(ctx, func(_ core.Tx, t *seatTable) ([]*core.Seat, []core.Event, error) {
		e, err := t.character(seatID)
		if err != nil {
			return nil, nil, err
		}
		var changed []*core.Seat
		if old := t.heldBy(who.Seat); old != nil && old.EntityID != e.ID {
			changed = append(changed, old.Freed())
		}
		next := *t.seat(e.ID)
		next.Holder, next.Player, next.Since, next.TakenBy = core.SeatHash(token), name, s.now().UTC(), who.Device
		out = &core.TakenSeat{Seat: seatView(e, &next), SeatToken: token}
		return append(changed, &next), nil, nil
	})
	return out, err
}

// FreeSeat is the game master freeing a seat: whoever held it holds
// nothing now.
func (s *seatsRoom) FreeSeat(ctx context.Context, seatID string) error {
	return s.pin().changeSeats(ctx, func(_ core.Tx, t *seatTable) ([]*core.Seat, []core.Event, error) {
		e, err := t.character(seatID)
		if err != nil {
			return nil, nil, err
		}
		return []*core.Seat{t.seat(e.ID).Freed()}, nil, nil
	})
}

// SetSeatControls sets the tokens a seat may drag besides its character's
// own in remote interaction "token" (a familiar, a mount): tokens of the
// campaign's maps. An empty list takes them all back.
func (s *seatsRoom) SetSeatControls(ctx context.Context, seatID string, tokenIDs []string) error {
	if len(tokenIDs) > core.MaxSeatControls {
		return core.Invalidf("a seat controls at most %d tokens", core.MaxSeatControls)
	}
	return s.pin().changeSeats(ctx, func(tx core.Tx, t *seatTable) ([]*core.Seat, []core.Event, error) {
		e, err := t.character(seatID)
		if err != nil {
			return nil, nil, err
		}
		var ids []string
		for _, id := range tokenIDs {
			if _, err := tokenByID(tx, id); err != nil {
				return nil, nil, err
			}
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		next := *t.seat(e.ID)
		next.Controls = ids
		return []*core.Seat{&next}, nil, nil
	})
}

// KickPlan is what Kick would end now, without ending it: the hub closes
// those connections first, with the kick's code.
func (s *seatsRoom) KickPlan(ctx context.Context, k core.KickTarget) (*core.Kicked, error) {
	if err := s.loadAccess(ctx); err != nil {
		return nil, err
	}
	p := s.pin()
	s.access.mu.RLock()
	st := s.access.state.Clone()
	s.access.mu.RUnlock()
	out := &core.Kicked{Passes: st.DevicePasses(k.Pass, core.AddressKey(k.Address)), NewKeys: st.Enabled}
	err := p.viewSeats(ctx, func(t *seatTable) {
		for _, seat := range t.deviceSeats(k, out.Passes) {
			out.Seats = append(out.Seats, seat.Holder)
		}
	})
	return out, err
}

// deviceSeats lists the seats a kicked device holds: the one its seat
// token names, and every one taken by one of its passes or from its
// address.
func (t *seatTable) deviceSeats(k core.KickTarget, passes []string) []*core.Seat {
	devices := map[string]bool{}
	for _, p := range passes {
		devices[core.DeviceOf(p, "", "", "")] = true
	}
	if key := core.AddressKey(k.Address); key != "" {
		devices[core.DeviceOf("", "", k.Address, "")] = true
	}
	if k.Seat != "" {
		devices[core.DeviceOf("", k.Seat, "", "")] = true
	}
	var out []*core.Seat
	for _, e := range t.characters {
		st := t.seat(e.ID)
		if st.Taken() && (st.Holder == k.Seat || devices[st.TakenBy]) {
			out = append(out, st)
		}
	}
	return out
}

// Kick is the game master sending a device away: every seat it holds is
// freed and, with the join key on, every pass it holds is revoked (the
// passes it minted from its address, or as the same device: KickTarget)
// and new keys are drawn (new links), so that it cannot come back with
// the link it had; every other device keeps its pass and stays.
func (s *seatsRoom) Kick(ctx context.Context, k core.KickTarget) (*core.Kicked, error) {
	if err := s.loadAccess(ctx); err != nil {
		return nil, err
	}
	p := s.pin()
	out := &core.Kicked{}
	var freed []*core.Seat
	var next core.JoinAccess
	err := p.writeThen(ctx, func(tx core.Tx) ([]core.Event, error) {
		var events []core.Event
		s.access.mu.RLock()
		next = s.access.state.Clone()
		s.access.mu.RUnlock()
		out.Passes = next.DevicePasses(k.Pass, core.AddressKey(k.Address))
		t, err := p.seatTable(tx)
		if err != nil && !core.IsNotFound(err) {
			return nil, err
		}
		if t != nil {
			for _, st := range t.deviceSeats(k, out.Passes) {
				f := st.Freed()
				if err := tx.PutSeat(f); err != nil {
					return nil, err
				}
				out.Seats = append(out.Seats, st.Holder)
				t.stored[f.EntityID] = f
				freed = append(freed, f)
			}
			if len(freed) > 0 && s.seatListDue() {
				events = append(events, core.Event{Name: core.EventSeatsUpdated, Data: t.list()})
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
		s.seatsByHash.set(freed...)
		if out.NewKeys {
			s.access.mu.Lock()
			s.access.state = next
			s.access.mu.Unlock()
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
