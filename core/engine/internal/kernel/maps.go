package kernel

import (
	"github.com/vttapp/companion/core"
)

func wallIndex(walls []core.Wall, id string) int {
	for i := range walls {
		if walls[i].ID == id {
			return i
		}
	}
	return -1
}

func wallTypeName(t string) string {
	if t == "" {
		return core.WallNormal
	}
	return t
}

// tokenFor is tokenByID as players or the game master may read it: for
// players a token no player sees (hidden, or on a map no player looks at:
// playerMaps) does not exist; PlayerAccess narrows it to the requester's
// own map.
func (s Pinned) tokenFor(tx core.Tx, id string, players bool) (*core.Token, error) {
	t, err := TokenByID(tx, id)
	if err != nil || !players {
		return t, err
	}
	maps, err := s.PlayerMapsIn(tx)
	if err != nil {
		return nil, err
	}
	if !maps.TokenShown(t) {
		return nil, core.NotFoundf("no token with id '%s'", core.Clip(id))
	}
	return t, nil
}

func TokenByID(tx core.Tx, id string) (*core.Token, error) {
	t, err := tx.Token(id)
	if core.IsNotFound(err) {
		return nil, core.NotFoundf("no token with id '%s'", core.Clip(id))
	}
	return t, err
}
