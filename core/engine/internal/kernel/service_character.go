package kernel

import (
	"slices"

	"github.com/vttapp/companion/core"
)

// FirstInitiativeValue is a combatant's first initiative value, nil when
// it has none.
func FirstInitiativeValue(c *core.Combatant) any {
	if len(c.Initiative) == 0 {
		return nil
	}
	return c.Initiative[0].Value
}

// InitiativeRequest is initiativeRequested for the seated characters'
// combatants (those of ids, every one when ids is empty) that players see
// and that have no initiative yet; nil when there are none.
func InitiativeRequest(tx core.Tx, campaignID string, combatants []*core.Combatant, ids []string) (*core.Event, error) {
	seats, err := tx.Seats(campaignID)
	if err != nil {
		return nil, err
	}
	held := map[string]bool{}
	for _, st := range seats {
		if st.Taken() {
			held[st.EntityID] = true
		}
	}
	req := core.InitiativeRequest{Combatants: []string{}, Seats: []string{}}
	for _, c := range combatants {
		if c.Hidden || c.EntityID == "" || !held[c.EntityID] || (len(ids) > 0 && !slices.Contains(ids, c.ID)) {
			continue
		}
		if _, rolled := NumberOf(FirstInitiativeValue(c)); rolled {
			continue
		}
		req.Combatants = append(req.Combatants, c.ID)
		req.Seats = append(req.Seats, c.EntityID)
	}
	if len(req.Combatants) == 0 {
		return nil, nil
	}
	return &core.Event{Name: core.EventInitiativeRequested, Data: &req}, nil
}
