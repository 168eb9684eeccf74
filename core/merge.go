package core

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
