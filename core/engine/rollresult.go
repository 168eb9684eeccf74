package engine

import (
	"encoding/json"

	"github.com/vttapp/companion/core"
)

// rollResults reads the engine's results of one message.
func rollResults(raws []json.RawMessage) []core.RollResult {
	if raws == nil {
		return nil
	}
	out := make([]core.RollResult, len(raws))
	for i, raw := range raws {
		out[i] = core.NewRollResult(raw)
	}
	return out
}
