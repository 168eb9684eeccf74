package kernel

import (
	"encoding/json"

	"github.com/vttapp/companion/core"
)

// patchDocument merges patch into the JSON form of current and decodes the
// result into out (a pointer to a fresh value of current's type). Fields
// that are not part of the JSON shape are the caller's to carry over.
func patchDocument(current any, patch core.Object, out any) error {
	raw, err := json.Marshal(current)
	if err != nil {
		return core.Internal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return core.Internal(err)
	}
	merged := core.MergePatch(doc, patch)
	if what, limit := storedLimit(out); limit > 0 {
		// Refused before it is encoded and decoded again: a patch of a few
		// megabytes would otherwise be held three more times.
		if n := encodedAtLeast(merged, limit); n > limit {
			return core.TooLargef("%s is more than %s once patched, the limit of what is stored", what, core.ByteSize(limit))
		}
	}
	raw, err = json.Marshal(merged)
	if err != nil {
		return core.Internal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return core.Invalidf("patch: %s", core.JSONErrorText(err))
	}
	return nil
}

// CheckPatchID rejects a patch whose id names another object than the path.
func CheckPatchID(patch core.Object, pathID string) error {
	v, ok := patch["id"]
	if !ok || v == nil {
		return nil
	}
	id, isString := v.(string)
	if !isString {
		return core.Invalidf("field 'id' must be a string")
	}
	if id != pathID {
		return core.Invalidf("body id '%s' does not match path id '%s'", core.Clip(id), core.Clip(pathID))
	}
	return nil
}
