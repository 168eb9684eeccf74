package kernel

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
)

// PlayerMark checks what a player sends in a mark: nothing hidden, no
// lock, and a pin that is seen.
func PlayerMark(k *mapobjects.MapKind, o core.Object) error {
	if hidden, _ := o["hidden"].(bool); hidden {
		return core.Forbiddenf("only the game master hides a %s", k.Noun)
	}
	if o["layer"] == "dm" {
		return core.Forbiddenf("only the game master draws on the GM layer")
	}
	if _, ok := o["locked"]; ok {
		return core.Forbiddenf("only the game master locks a %s", k.Noun)
	}
	if k.HiddenByDefault {
		if _, ok := o["hidden"]; !ok {
			o["hidden"] = false
		}
	}
	return nil
}

// OwnMarksBelowLimit refuses a player's new mark when they hold
// MaxMarksPerPlayer of its kind on the map already.
func OwnMarksBelowLimit(tx core.Tx, k *mapobjects.MapKind, mapID, owner string) error {
	m, err := MapByID(tx, mapID)
	if err != nil {
		return err
	}
	list, err := k.List.Get(m)
	if err != nil {
		return err
	}
	n := 0
	for _, o := range list {
		if id, _ := o["id"].(string); mapobjects.MarkOwner(id) == owner {
			n++
		}
	}
	if n >= mapobjects.MaxMarksPerPlayer {
		return core.Conflictf("you have %d %ss on this map, the most one player may: remove some first", n, k.Noun)
	}
	return nil
}
