package kernel

import (
	"github.com/vttapp/companion/core"
)

// SharedCombatant is the existing combatant of a unique entity, if any.
func SharedCombatant(existing []*core.Combatant, c *core.Combatant, rules core.Rules) *core.Combatant {
	if c.EntityID == "" || rules == nil || !rules.IsUnique(c.EntityType) {
		return nil
	}
	for _, old := range existing {
		if old.EntityID == c.EntityID {
			return old
		}
	}
	return nil
}

func AutoRolls(autoRoll, role string) bool {
	switch autoRoll {
	case "all":
		return true
	case core.RoleHostile:
		return role == "" || role == core.RoleHostile
	case core.RoleFriendly, core.RoleNeutral:
		return role == autoRoll
	}
	return false
}

func SetInitiative(c *core.Combatant, v any) {
	if len(c.Initiative) == 0 {
		c.Initiative = []core.Initiative{{ID: core.NewID(), Value: v}}
		return
	}
	c.Initiative = append([]core.Initiative(nil), c.Initiative...)
	c.Initiative[0].Value = v
	c.Initiative[0].Order = 0
}

// Pick returns the combatants named by ids, all of them when ids is empty.
func Pick(all []*core.Combatant, ids []string) ([]*core.Combatant, error) {
	if len(ids) == 0 {
		return all, nil
	}
	byID := map[string]*core.Combatant{}
	for _, c := range all {
		byID[c.ID] = c
	}
	out := make([]*core.Combatant, 0, len(ids))
	for _, id := range ids {
		c, ok := byID[id]
		if !ok {
			return nil, core.NotFoundf("no combatant with id '%s'", core.Clip(id))
		}
		out = append(out, c)
	}
	return out, nil
}

func CloneObject(o core.Object) core.Object {
	out := make(core.Object, len(o))
	for k, v := range o {
		out[k] = v
	}
	return out
}

// combatantFor is combatantByID as players or the game master may read
// it: for players a hidden combatant does not exist, nor one outside the
// primary campaign's game (the only game they see).
func (s Pinned) combatantFor(tx core.Tx, id string, players bool) (*core.Combatant, error) {
	c, err := CombatantByID(tx, id)
	if err != nil || !players {
		return c, err
	}
	if c.Hidden {
		return nil, core.NotFoundf("no combatant with id '%s'", core.Clip(id))
	}
	if s.Rules == nil {
		return c, nil
	}
	primary, err := s.PrimaryCampaign(tx)
	if err != nil && !core.IsNotFound(err) {
		return nil, err
	}
	if primary == nil || primary.ID != c.Campaign {
		return nil, core.NotFoundf("no combatant with id '%s'", core.Clip(id))
	}
	return c, nil
}

func CombatantByID(tx core.Tx, id string) (*core.Combatant, error) {
	c, err := tx.Combatant(id)
	if core.IsNotFound(err) {
		return nil, core.NotFoundf("no combatant with id '%s'", core.Clip(id))
	}
	return c, err
}
