package core

import "strings"

func HasCombatant(list []*Combatant, id string) bool {
	for _, c := range list {
		if c.ID == id {
			return true
		}
	}
	return false
}

// dmLayer is the BattleMapLayer only the game master sees (shapes: "markers
// on the DM layer never reach players"); what lies on it is hidden whatever
// its own flag says.
const dmLayer = "dm"

// ObjectHidden reads an object's "hidden" flag, hiddenDefault when absent;
// an object on the dm layer is always hidden.
func ObjectHidden(o Object, hiddenDefault bool) bool {
	if layer, _ := o["layer"].(string); strings.EqualFold(layer, dmLayer) {
		return true
	}
	if h, ok := o["hidden"].(bool); ok {
		return h
	}
	return hiddenDefault
}

func VisibleObjects(list []Object, hiddenDefault bool) []Object {
	if list == nil {
		return nil
	}
	out := make([]Object, 0, len(list))
	for _, o := range list {
		if !ObjectHidden(o, hiddenDefault) {
			out = append(out, o)
		}
	}
	return out
}
