package kernel

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
)

// seatCandidates lists the characters of a campaign that are seats: the
// entities of a unique kind it owns, and those its combatants stand for,
// by name.
func (s Pinned) seatCandidates(tx core.Tx, campaignID string) ([]*core.Entity, error) {
	if s.Rules == nil {
		return nil, nil
	}
	owned, err := tx.Entities(core.EntityQuery{Owner: campaignID})
	if err != nil {
		return nil, err
	}
	var out []*core.Entity
	seen := map[string]bool{}
	for _, e := range owned {
		if s.Rules.IsUnique(e.Kind) && !seen[e.ID] {
			seen[e.ID] = true
			out = append(out, e)
		}
	}
	combatants, err := tx.Combatants(campaignID)
	if err != nil {
		return nil, err
	}
	for _, c := range combatants {
		if c.EntityID == "" || seen[c.EntityID] || !s.Rules.IsUnique(c.EntityType) {
			continue
		}
		e, err := tx.Entity(c.EntityID)
		if core.IsNotFound(err) {
			continue // links are soft
		}
		if err != nil {
			return nil, err
		}
		if s.Rules.IsUnique(e.Kind) {
			seen[e.ID] = true
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b *core.Entity) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// SeatTable is the primary campaign's seats as they stand in one
// transaction: the characters and what is stored of their seats.
type SeatTable struct {
	Campaign   *core.Campaign
	Characters []*core.Entity
	Stored     map[string]*core.Seat // by character id
}

func (s Pinned) SeatTable(tx core.Tx) (*SeatTable, error) {
	camp, err := s.PrimaryCampaign(tx)
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
	return &SeatTable{Campaign: camp, Characters: chars, Stored: stored}, nil
}

// Character returns the seat's character, or not found.
func (t *SeatTable) Character(id string) (*core.Entity, error) {
	for _, e := range t.Characters {
		if e.ID == id {
			return e, nil
		}
	}
	return nil, core.NotFoundf("no seat '%s': the seats are the player characters of the campaign", core.Clip(id))
}

// Seat returns the stored seat of a character (a free one, not yet stored,
// when none).
func (t *SeatTable) Seat(id string) *core.Seat {
	if st := t.Stored[id]; st != nil {
		return st
	}
	return &core.Seat{EntityID: id, Campaign: t.Campaign.ID}
}

// HeldBy returns the seat a token hash holds, nil when none.
func (t *SeatTable) HeldBy(hash string) *core.Seat {
	if hash == "" {
		return nil
	}
	for _, st := range t.Stored {
		if st.Holder == hash {
			if _, err := t.Character(st.EntityID); err == nil {
				return st
			}
		}
	}
	return nil
}

func SeatView(e *core.Entity, st *core.Seat) core.SeatView {
	v := core.SeatView{ID: e.ID, Name: e.Name, Kind: e.Kind, Image: e.Image}
	if st.Taken() {
		v.Taken, v.Player = true, st.Player
	}
	return v
}

// List is the public seat list.
func (t *SeatTable) List() *core.SeatList {
	out := &core.SeatList{Seats: []core.SeatView{}}
	for _, e := range t.Characters {
		out.Seats = append(out.Seats, SeatView(e, t.Seat(e.ID)))
	}
	return out
}

// ViewSeats reads the primary campaign's seats in a read transaction;
// without a primary campaign there are none (read is not called).
func (s Pinned) ViewSeats(ctx context.Context, read func(t *SeatTable)) error {
	return s.Store.View(ctx, func(tx core.Tx) error {
		t, err := s.SeatTable(tx)
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

// DeviceSeats lists the seats a kicked device holds: the one its seat
// token names, and every one taken by one of its passes or from its
// address.
func (t *SeatTable) DeviceSeats(k core.KickTarget, passes []string) []*core.Seat {
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
	for _, e := range t.Characters {
		st := t.Seat(e.ID)
		if st.Taken() && (st.Holder == k.Seat || devices[st.TakenBy]) {
			out = append(out, st)
		}
	}
	return out
}
