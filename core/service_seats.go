package core

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// HostSeat is a seat as the game master reads it: the public view and the
// tokens the seat controls besides its character's.
type HostSeat struct {
	SeatView
	Controls []string `json:"controls"`
	// MapID is the map the game master put the seat on (a split party,
	// seatmaps.go), absent when the seat follows the player screen.
	MapID string `json:"mapId,omitempty"`
	// Holder is the hash of the seat token, for the hub to find who sits
	// there; it never goes out (not even to the host console).
	Holder string `json:"-"`
}

// seatCandidates lists the characters of a campaign that are seats: the
// entities of a unique kind it owns, and those its combatants stand for,
// by name.
func (s pinned) seatCandidates(tx Tx, campaignID string) ([]*Entity, error) {
	if s.rules == nil {
		return nil, nil
	}
	owned, err := tx.Entities(EntityQuery{Owner: campaignID})
	if err != nil {
		return nil, err
	}
	var out []*Entity
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
		if IsNotFound(err) {
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
	slices.SortFunc(out, func(a, b *Entity) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// seatTable is the primary campaign's seats as they stand in one
// transaction: the characters and what is stored of their seats.
type seatTable struct {
	campaign   *Campaign
	characters []*Entity
	stored     map[string]*Seat // by character id
}

func (s pinned) seatTable(tx Tx) (*seatTable, error) {
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
	stored := map[string]*Seat{}
	for _, r := range rows {
		stored[r.EntityID] = r
	}
	return &seatTable{campaign: camp, characters: chars, stored: stored}, nil
}

// character returns the seat's character, or not found.
func (t *seatTable) character(id string) (*Entity, error) {
	for _, e := range t.characters {
		if e.ID == id {
			return e, nil
		}
	}
	return nil, NotFoundf("no seat '%s': the seats are the player characters of the campaign", Clip(id))
}

// seat returns the stored seat of a character (a free one, not yet stored,
// when none).
func (t *seatTable) seat(id string) *Seat {
	if st := t.stored[id]; st != nil {
		return st
	}
	return &Seat{EntityID: id, Campaign: t.campaign.ID}
}

// heldBy returns the seat a token hash holds, nil when none.
func (t *seatTable) heldBy(hash string) *Seat {
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

func seatView(e *Entity, st *Seat) SeatView {
	v := SeatView{ID: e.ID, Name: e.Name, Kind: e.Kind, Image: e.Image}
	if st.Taken() {
		v.Taken, v.Player = true, st.Player
	}
	return v
}

// list is the public seat list.
func (t *seatTable) list() *SeatList {
	out := &SeatList{Seats: []SeatView{}}
	for _, e := range t.characters {
		out.Seats = append(out.Seats, seatView(e, t.seat(e.ID)))
	}
	return out
}

// viewSeats reads the primary campaign's seats in a read transaction;
// without a primary campaign there are none (read is not called).
func (s pinned) viewSeats(ctx context.Context, read func(t *seatTable)) error {
	return s.store.View(ctx, func(tx Tx) error {
		t, err := s.seatTable(tx)
		if IsNotFound(err) {
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
func (s *Service) Seats(ctx context.Context) (*SeatList, error) {
	p := s.pin()
	var out *SeatList
	err := p.store.View(ctx, func(tx Tx) error {
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
func (s *Service) HostSeats(ctx context.Context) ([]HostSeat, error) {
	p := s.pin()
	var out []HostSeat
	err := p.store.View(ctx, func(tx Tx) error {
		t, err := p.seatTable(tx)
		if err != nil {
			return err
		}
		out = []HostSeat{}
		for _, e := range t.characters {
			st := t.seat(e.ID)
			out = append(out, HostSeat{SeatView: seatView(e, st), Controls: append([]string{}, st.Controls...), MapID: st.MapID, Holder: st.Holder})
		}
		return nil
	})
	return out, err
}

// mayHoldSeat refuses a spectator or a player display a seat.
func (a Actor) mayHoldSeat() error {
	switch a.Role {
	case ClientSpectator, ClientDisplay:
		return Forbiddenf("a %s cannot take a seat", a.Role)
	}
	return nil
}

// changeSeats runs a change of seats in one transaction and publishes the
// seat list after it; the index of held seats follows the commit.
func (s pinned) changeSeats(ctx context.Context, change func(tx Tx, t *seatTable) ([]*Seat, []Event, error)) error {
	var changed []*Seat
	return s.writeThen(ctx, func(tx Tx) ([]Event, error) {
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
			events = append([]Event{{Name: EventSeatsUpdated, Data: t.list()}}, events...)
		}
		return events, nil
	}, func() { s.seats.set(changed...) })
}

// TakeSeat gives a free seat to a player who asks for it, under the name
// they give (their client's name when empty), and draws the seat token
// they keep: answered to them alone. A seat someone holds is refused, and
// so is a spectator or a display asking. Taking a seat frees the one the
// player held before.
func (s *Service) TakeSeat(ctx context.Context, who Actor, seatID, player string) (*TakenSeat, error) {
	if err := who.mayHoldSeat(); err != nil {
		return nil, err
	}
	name, err := playerName(cmp.Or(strings.TrimSpace(player), who.Name))
	if err != nil {
		return nil, err
	}
	token := NewSeatToken()
	var out *TakenSeat
	err = s.pin().changeSeats(ctx, func(_ Tx, t *seatTable) ([]*Seat, []Event, error) {
		e, err := t.character(seatID)
		if err != nil {
			return nil, nil, err
		}
		st := t.seat(e.ID)
		if st.Taken() && st.Holder != who.Seat {
			return nil, nil, Conflictf("%s is taken by %s", e.Name, cmp.Or(st.Player, "another player"))
		}
		var changed []*Seat
		if old := t.heldBy(who.Seat); old != nil && old.EntityID != e.ID {
			changed = append(changed, old.freed())
		}
		next := *st
		next.Holder, next.Player, next.Since, next.TakenBy = SeatHash(token), name, s.now().UTC(), who.Device
		out = &TakenSeat{Seat: seatView(e, &next), SeatToken: token}
		return append(changed, &next), nil, nil
	})
	return out, err
}

// ResumeSeat finds the seat a seat token holds (a player coming back after
// a reload or a restart). A token whose seat was freed opens nothing.
func (s *Service) ResumeSeat(ctx context.Context, who Actor, token string) (*TakenSeat, error) {
	if err := who.mayHoldSeat(); err != nil {
		return nil, err
	}
	return s.seatByHash(ctx, SeatHash(token))
}

// MySeat returns the seat the actor's seat token holds, nil when none.
func (s *Service) MySeat(ctx context.Context, who Actor) (*SeatView, error) {
	if who.Seat == "" {
		return nil, nil
	}
	taken, err := s.seatByHash(ctx, who.Seat)
	if IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &taken.Seat, nil
}

func (s *Service) seatByHash(ctx context.Context, hash string) (*TakenSeat, error) {
	p := s.pin()
	var out *TakenSeat
	err := p.store.View(ctx, func(tx Tx) error {
		t, err := p.seatTable(tx)
		if err != nil {
			return err
		}
		st := t.heldBy(hash)
		if st == nil {
			return NotFoundf("this seat token holds no seat (the seat was freed): pick a seat again")
		}
		e, _ := t.character(st.EntityID)
		out = &TakenSeat{Seat: seatView(e, st)}
		return nil
	})
	return out, err
}

// LeaveSeat frees the seat the actor holds.
func (s *Service) LeaveSeat(ctx context.Context, who Actor) error {
	return s.pin().changeSeats(ctx, func(_ Tx, t *seatTable) ([]*Seat, []Event, error) {
		st := t.heldBy(who.Seat)
		if st == nil {
			return nil, nil, NotFoundf("you hold no seat")
		}
		return []*Seat{st.freed()}, nil, nil
	})
}

// AssignSeat is the game master giving a seat to a player, whoever held it
// before (their token opens nothing any more): it draws the token the hub
// hands to that player's connection. who is that player (their device; the
// seat they held before, freed in the same change).
func (s *Service) AssignSeat(ctx context.Context, seatID, player string, who Actor) (*TakenSeat, error) {
	name, err := playerName(player)
	if err != nil {
		return nil, err
	}
	token := NewSeatToken()
	var out *TakenSeat
	err = s.pin().changeSeats(ctx, func(_ Tx, t *seatTable) ([]*Seat, []Event, error) {
		e, err := t.character(seatID)
		if err != nil {
			return nil, nil, err
		}
		var changed []*Seat
		if old := t.heldBy(who.Seat); old != nil && old.EntityID != e.ID {
			changed = append(changed, old.freed())
		}
		next := *t.seat(e.ID)
		next.Holder, next.Player, next.Since, next.TakenBy = SeatHash(token), name, s.now().UTC(), who.Device
		out = &TakenSeat{Seat: seatView(e, &next), SeatToken: token}
		return append(changed, &next), nil, nil
	})
	return out, err
}

// FreeSeat is the game master freeing a seat: whoever held it holds
// nothing now.
func (s *Service) FreeSeat(ctx context.Context, seatID string) error {
	return s.pin().changeSeats(ctx, func(_ Tx, t *seatTable) ([]*Seat, []Event, error) {
		e, err := t.character(seatID)
		if err != nil {
			return nil, nil, err
		}
		return []*Seat{t.seat(e.ID).freed()}, nil, nil
	})
}

// SetSeatControls sets the tokens a seat may drag besides its character's
// own in remote interaction "token" (a familiar, a mount): tokens of the
// campaign's maps. An empty list takes them all back.
func (s *Service) SetSeatControls(ctx context.Context, seatID string, tokenIDs []string) error {
	if len(tokenIDs) > MaxSeatControls {
		return Invalidf("a seat controls at most %d tokens", MaxSeatControls)
	}
	return s.pin().changeSeats(ctx, func(tx Tx, t *seatTable) ([]*Seat, []Event, error) {
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
		return []*Seat{&next}, nil, nil
	})
}

// KickTarget is the device the game master sends away: the hash of the
// seat token and of the pass one of its connections holds ("" when none),
// and the address it comes from (its host).
type KickTarget struct {
	Seat, Pass, Address string
}

// Kicked is what a kick ends: the passes revoked and the seats freed (by
// the hash of their token), for the hub to close every connection they
// open; and whether new keys were drawn.
type Kicked struct {
	Passes, Seats []string
	NewKeys       bool
}

// KickPlan is what Kick would end now, without ending it: the hub closes
// those connections first, with the kick's code.
func (s *Service) KickPlan(ctx context.Context, k KickTarget) (*Kicked, error) {
	if err := s.loadAccess(ctx); err != nil {
		return nil, err
	}
	p := s.pin()
	s.access.mu.RLock()
	st := s.access.state.clone()
	s.access.mu.RUnlock()
	out := &Kicked{Passes: st.devicePasses(k.Pass, AddressKey(k.Address)), NewKeys: st.Enabled}
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
func (t *seatTable) deviceSeats(k KickTarget, passes []string) []*Seat {
	devices := map[string]bool{}
	for _, p := range passes {
		devices[DeviceOf(p, "", "", "")] = true
	}
	if key := AddressKey(k.Address); key != "" {
		devices[DeviceOf("", "", k.Address, "")] = true
	}
	if k.Seat != "" {
		devices[DeviceOf("", k.Seat, "", "")] = true
	}
	var out []*Seat
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
func (s *Service) Kick(ctx context.Context, k KickTarget) (*Kicked, error) {
	if err := s.loadAccess(ctx); err != nil {
		return nil, err
	}
	p := s.pin()
	out := &Kicked{}
	var freed []*Seat
	var next JoinAccess
	err := p.writeThen(ctx, func(tx Tx) ([]Event, error) {
		var events []Event
		s.access.mu.RLock()
		next = s.access.state.clone()
		s.access.mu.RUnlock()
		out.Passes = next.devicePasses(k.Pass, AddressKey(k.Address))
		t, err := p.seatTable(tx)
		if err != nil && !IsNotFound(err) {
			return nil, err
		}
		if t != nil {
			for _, st := range t.deviceSeats(k, out.Passes) {
				f := st.freed()
				if err := tx.PutSeat(f); err != nil {
					return nil, err
				}
				out.Seats = append(out.Seats, st.Holder)
				t.stored[f.EntityID] = f
				freed = append(freed, f)
			}
			if len(freed) > 0 && s.seatListDue() {
				events = append(events, Event{Name: EventSeatsUpdated, Data: t.list()})
			}
		}
		if next.Enabled {
			out.NewKeys = true
			for _, hash := range out.Passes {
				next.revoke(hash)
			}
			next.drawKeys()
			if err := tx.PutAccess(&next); err != nil {
				return nil, err
			}
			events = append(events, Event{Name: EventAccessChanged, Data: HostOnly(AccessChanged{Enabled: true})})
		}
		return events, nil
	}, func() {
		s.seats.set(freed...)
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
