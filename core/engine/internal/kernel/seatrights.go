package kernel

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// CheckOwnEdit refuses a player's edit of their own character (kind) that
// changes anything but the kind's editable data keys: rest is the rest of
// each version, compared whole.
func (s Pinned) CheckOwnEdit(kind string, oldData, newData core.Object, oldRest, newRest any) error {
	a, errA := json.Marshal(oldRest)
	b, errB := json.Marshal(newRest)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		return core.Forbiddenf("a player may change only the editable data of their character (%s)", strings.Join(s.OwnEditable(kind), ", "))
	}
	return s.checkDataEdit(kind, oldData, newData)
}

// OwnEditable is what a player may write directly on a character of kind:
// its editable keys, less the hit point keys.
func (s Pinned) OwnEditable(kind string) []string {
	locked := s.HitPointKeys(kind)
	var out []string
	for _, k := range s.EditableKeys(kind) {
		if !slices.Contains(locked, k) {
			out = append(out, k)
		}
	}
	return out
}

// checkDataEdit refuses a change of a data key a player may not write.
func (s Pinned) checkDataEdit(kind string, oldData, newData core.Object) error {
	allowed := s.OwnEditable(kind)
	var refused []string
	for _, k := range redact.ChangedKeys(oldData, newData) {
		if !slices.Contains(allowed, k) {
			refused = append(refused, k)
		}
	}
	if len(refused) == 0 {
		// Within the keys a player may write, the values the system
		// allows (its bounds: health values are the system's to declare).
		for _, k := range redact.ChangedKeys(oldData, newData) {
			if v, present := newData[k]; present {
				if b, ok := s.Bound(kind, k); ok {
					if err := b.Check("'"+k+"'", v); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	if locked := s.HitPointKeys(kind); len(locked) > 0 && slices.Contains(locked, refused[0]) {
		return core.Forbiddenf("'%s' changes through damage, healing and temporary hit points, not by writing it", refused[0])
	}
	return core.Forbiddenf("a player may not change '%s' of their character (editable: %s)", core.Clip(refused[0]), strings.Join(allowed, ", "))
}
