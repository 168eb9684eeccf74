package play

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
)

// The one pipeline of map objects (mapkinds.go): every kind is read,
// validated, stored, shown to players and broadcast here by its row of
// MapKinds, whatever the kind.

// MapObjects lists a kind's objects on a map as the game master sees them
// (hidden ones included).
func (s *PlayRoom) MapObjects(ctx context.Context, mapID, kind string) ([]core.Object, error) {
	k, err := mapobjects.MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	var out []core.Object
	err = s.pin().Store.View(ctx, func(tx core.Tx) error {
		m, err := kernel.MapByID(tx, mapID)
		if err != nil {
			return err
		}
		out, err = k.List.Get(m)
		return err
	})
	return out, err
}

// AddMapObjects adds objects of one kind to a map in one transaction, each
// given an id when it has none: all are stored or, when one is refused,
// none. It returns them as stored.
func (s *PlayRoom) AddMapObjects(ctx context.Context, mapID, kind string, objects []core.Object) ([]core.Object, error) {
	k, err := mapobjects.MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	return s.pin().AddMapObjects(ctx, mapID, k, objects, nil)
}

// PatchMapObject merges a JSON merge patch into one object and checks the
// result as a new one; the id cannot change.
func (s *PlayRoom) PatchMapObject(ctx context.Context, mapID, kind, id string, patch core.Object) (core.Object, error) {
	k, err := mapobjects.MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	return s.pin().PatchMapObject(ctx, mapID, k, id, patch, nil)
}

// DeleteMapObject removes one object from a map.
func (s *PlayRoom) DeleteMapObject(ctx context.Context, mapID, kind, id string) error {
	k, err := mapobjects.MapKindOf(kind)
	if err != nil {
		return err
	}
	return s.pin().DeleteMapObjects(ctx, mapID, k, func(o core.Object) bool { return o["id"] == id }, id, nil)
}
