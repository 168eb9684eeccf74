package core

import "encoding/json"

// MergePatch applies an RFC 7386 JSON merge patch to target and returns the
// result: objects merge recursively, null removes a key, anything else
// replaces. target is modified in place when it is an object.
func MergePatch(target any, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = MergePatch(t[k], v)
	}
	return t
}

// patchDocument merges patch into the JSON form of current and decodes the
// result into out (a pointer to a fresh value of current's type). Fields
// that are not part of the JSON shape are the caller's to carry over.
func patchDocument(current any, patch Object, out any) error {
	raw, err := json.Marshal(current)
	if err != nil {
		return Internal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return Internal(err)
	}
	merged := MergePatch(doc, patch)
	if what, limit := storedLimit(out); limit > 0 {
		// Refused before it is encoded and decoded again: a patch of a few
		// megabytes would otherwise be held three more times.
		if n := encodedAtLeast(merged, limit); n > limit {
			return TooLargef("%s is more than %s once patched, the limit of what is stored", what, byteSize(limit))
		}
	}
	raw, err = json.Marshal(merged)
	if err != nil {
		return Internal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return Invalidf("patch: %s", jsonErrorText(err))
	}
	return nil
}

// checkPatchID rejects a patch whose id names another object than the path.
func checkPatchID(patch Object, pathID string) error {
	v, ok := patch["id"]
	if !ok || v == nil {
		return nil
	}
	id, isString := v.(string)
	if !isString {
		return Invalidf("field 'id' must be a string")
	}
	if id != pathID {
		return Invalidf("body id '%s' does not match path id '%s'", Clip(id), Clip(pathID))
	}
	return nil
}
