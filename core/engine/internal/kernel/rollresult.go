package kernel

import (
	"encoding/json"

	"github.com/vttapp/companion/core"
)

// RollResults reads the engine's results of one message.
func RollResults(raws []json.RawMessage) []core.RollResult {
	if raws == nil {
		return nil
	}
	out := make([]core.RollResult, len(raws))
	for i, raw := range raws {
		out[i] = core.NewRollResult(raw)
	}
	return out
}
