package kernel

import (
	"github.com/vttapp/companion/core"
)

// edit is a client's change to a stored object: its whole document (PUT)
// or an RFC 7386 merge patch (PATCH).
type edit[T any] struct {
	whole *T
	patch core.Object
}

func wholeDocument[T any](body *T) edit[T] { return edit[T]{whole: body} }

func MergePatch[T any](patch core.Object) edit[T] { return edit[T]{patch: patch} }

// Next is the version the edit makes of old, before the server-owned
// fields are restored.
func (e edit[T]) Next(old *T) (*T, error) {
	if e.whole != nil {
		next := *e.whole
		return &next, nil
	}
	next := new(T)
	if err := patchDocument(old, e.patch, next); err != nil {
		return nil, err
	}
	return next, nil
}
