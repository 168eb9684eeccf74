package mapobjects

import (
	"strings"

	"github.com/vttapp/companion/core"
)

// MapChange is what PATCH /host/api/maps/{id} may change: the name and
// the map's line of sight (on or off, daylight 0 to 1, the vision limit
// in grid units, -1 for none). An absent field is kept.
type MapChange struct {
	Name           *string  `json:"name"`
	LineOfSight    *bool    `json:"lineOfSight"`
	LosDaylight    *float64 `json:"losDaylight"`
	LosVisionLimit *int     `json:"losVisionLimit"`
}

func (c MapChange) Check() error {
	if c.Name != nil && strings.TrimSpace(*c.Name) == "" {
		return core.Invalidf("a map needs a 'name'")
	}
	if c.LosDaylight != nil && !(*c.LosDaylight >= 0 && *c.LosDaylight <= 1) {
		return core.Invalidf("'losDaylight' is from 0 (dark) to 1 (broad daylight)")
	}
	if c.LosVisionLimit != nil && (*c.LosVisionLimit < -1 || *c.LosVisionLimit > MaxLightRadius) {
		return core.Invalidf("'losVisionLimit' is -1 (no limit) or a distance in grid units up to %d", MaxLightRadius)
	}
	if c == (MapChange{}) {
		return core.Invalidf("nothing to change: send name, lineOfSight, losDaylight or losVisionLimit")
	}
	return nil
}
