package core

import (
	"context"
	"encoding/json"
)

// The one pipeline of map objects (mapkinds.go): every kind is read,
// validated, stored, shown to players and broadcast here by its row of
// MapKinds, whatever the kind.

// MapObjects lists a kind's objects on a map as the game master sees them
// (hidden ones included).
func (s *Service) MapObjects(ctx context.Context, mapID, kind string) ([]Object, error) {
	k, err := MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	var out []Object
	err = s.pin().store.View(ctx, func(tx Tx) error {
		m, err := mapByID(tx, mapID)
		if err != nil {
			return err
		}
		out, err = k.list.get(m)
		return err
	})
	return out, err
}

// AddMapObjects adds objects of one kind to a map in one transaction, each
// given an id when it has none: all are stored or, when one is refused,
// none. It returns them as stored.
func (s *Service) AddMapObjects(ctx context.Context, mapID, kind string, objects []Object) ([]Object, error) {
	k, err := MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	return s.pin().addMapObjects(ctx, mapID, k, objects, nil)
}

// addMapObjects is AddMapObjects of a kind, after guard (nil: the game
// master's write) allowed it in the write's transaction.
func (s pinned) addMapObjects(ctx context.Context, mapID string, k *MapKind, objects []Object, guard func(Tx) error) ([]Object, error) {
	switch {
	case len(objects) == 0:
		return nil, Invalidf("nothing to add: send a %s or a list of them", k.Noun)
	case len(objects) > MaxMapObjectsPerWrite:
		return nil, Invalidf("%d %ss in one request: at most %d at a time", len(objects), k.Noun, MaxMapObjectsPerWrite)
	}
	for _, o := range objects {
		if o == nil {
			return nil, Invalidf("each %s is a JSON object", k.Noun)
		}
		if _, ok := o["id"]; !ok {
			o["id"] = NewID()
		}
		if err := checkCommon(k, o); err != nil {
			return nil, err
		}
	}
	var out []Object
	err := s.changeMapObjects(ctx, mapID, k, guard, func(list []Object) ([]Object, error) {
		taken := make(map[string]bool, len(list)+len(objects))
		for _, o := range list {
			if id, _ := o["id"].(string); id != "" {
				taken[id] = true
			}
		}
		for _, o := range objects {
			id := o["id"].(string)
			if taken[id] {
				return nil, Conflictf("map already has a %s with id '%s'", k.Noun, Clip(id))
			}
			taken[id] = true
		}
		if n := len(list) + len(objects); n > MaxMapObjects {
			return nil, Invalidf("the map would hold %d %ss, more than the limit of %d", n, k.Noun, MaxMapObjects)
		}
		out = objects
		return append(append(make([]Object, 0, len(list)+len(objects)), list...), objects...), nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PatchMapObject merges a JSON merge patch into one object and checks the
// result as a new one; the id cannot change.
func (s *Service) PatchMapObject(ctx context.Context, mapID, kind, id string, patch Object) (Object, error) {
	k, err := MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	return s.pin().patchMapObject(ctx, mapID, k, id, patch, nil)
}

// patchMapObject is PatchMapObject of a kind, after guard allowed it.
func (s pinned) patchMapObject(ctx context.Context, mapID string, k *MapKind, id string, patch Object, guard func(Tx) error) (Object, error) {
	if err := checkPatchID(patch, id); err != nil {
		return nil, err
	}
	var out Object
	err := s.changeMapObjects(ctx, mapID, k, guard, func(list []Object) ([]Object, error) {
		i, err := objectIndex(k, list, mapID, id)
		if err != nil {
			return nil, err
		}
		merged, err := copyObject(list[i])
		if err != nil {
			return nil, err
		}
		merged, _ = MergePatch(merged, map[string]any(patch)).(map[string]any)
		merged["id"] = id
		if err := checkCommon(k, merged); err != nil {
			return nil, err
		}
		list = append([]Object(nil), list...)
		list[i], out = merged, merged
		return list, nil
	})
	return out, err
}

// DeleteMapObject removes one object from a map.
func (s *Service) DeleteMapObject(ctx context.Context, mapID, kind, id string) error {
	k, err := MapKindOf(kind)
	if err != nil {
		return err
	}
	return s.pin().deleteMapObjects(ctx, mapID, k, func(o Object) bool { return o["id"] == id }, id, nil)
}

// deleteMapObjects removes the objects of a kind that match, after guard
// allowed it; one (named id) must match when id is not empty.
func (s pinned) deleteMapObjects(ctx context.Context, mapID string, k *MapKind, match func(Object) bool, id string, guard func(Tx) error) error {
	return s.changeMapObjects(ctx, mapID, k, guard, func(list []Object) ([]Object, error) {
		if id != "" {
			if _, err := objectIndex(k, list, mapID, id); err != nil {
				return nil, err
			}
		}
		out := make([]Object, 0, len(list))
		for _, o := range list {
			if !match(o) {
				out = append(out, o)
			}
		}
		return out, nil
	})
}

func objectIndex(k *MapKind, list []Object, mapID, id string) (int, error) {
	for i, o := range list {
		if o["id"] == id {
			return i, nil
		}
	}
	return -1, NotFoundf("map '%s' has no %s with id '%s'", Clip(mapID), k.Noun, Clip(id))
}

// copyObject is a deep copy of o, for a patch that must not touch the list
// read from the map until it is stored.
func copyObject(o Object) (Object, error) {
	raw, err := json.Marshal(o)
	if err != nil {
		return nil, Internal(err)
	}
	var out Object
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, Internal(err)
	}
	return out, nil
}

// changeMapObjects runs change on a kind's list of a map in one write
// transaction, stores the list it returns and broadcasts the kind's events:
// to players only when the map is on the player screen, as they see it.
// A map deleted meanwhile is a 404 and nothing is stored. guard, when not
// nil, may refuse the write first (a player's: marks.go).
func (s pinned) changeMapObjects(ctx context.Context, mapID string, k *MapKind, guard func(Tx) error, change func([]Object) ([]Object, error)) error {
	return s.write(ctx, func(tx Tx) ([]Event, error) {
		if guard != nil {
			if err := guard(tx); err != nil {
				return nil, err
			}
		}
		m, err := mapByID(tx, mapID)
		if err != nil {
			return nil, err
		}
		list, err := k.list.get(m)
		if err != nil {
			return nil, err
		}
		list, err = change(list)
		if err != nil {
			return nil, err
		}
		if err := k.list.put(m, list); err != nil {
			return nil, err
		}
		tokens := m.Tokens
		m.Tokens = nil // the map document only; tokens keep their rows
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		m.Tokens = tokens
		return s.mapObjectEvents(tx, k, m)
	})
}

// mapObjectEvents are the broadcasts after a kind changed on m: the kind's
// event with its list (to players the list alone, to the host with mapId), and for a kind that shapes line of sight the map and
// its sights, as after a door. Players receive them, redacted, only when m
// is on the player screen.
func (s pinned) mapObjectEvents(tx Tx, k *MapKind, m *Map) ([]Event, error) {
	players, err := s.playerMapIn(tx, m)
	if err != nil {
		return nil, err
	}
	host, err := s.hostMapIn(tx, m)
	if err != nil {
		return nil, err
	}
	onScreen, err := s.playersSee(tx, m.ID)
	if err != nil {
		return nil, err
	}
	views := func(forPlayers, forHost any) Views {
		if !onScreen {
			return HostOnly(forHost)
		}
		return Views{Players: forPlayers, Host: forHost, Map: m.ID}
	}
	var events []Event
	if k.Event != "" {
		shown, err := k.list.get(players)
		if err != nil {
			return nil, err
		}
		all, err := k.list.get(host)
		if err != nil {
			return nil, err
		}
		// Players get the bare list, as the original sends it (the
		// Encounter+ web client sets the map's field to the event's data);
		// they only hear of the map on the player screen. The host console,
		// which also prepares maps off screen, gets {mapId, <field>}.
		events = append(events, Event{Name: k.Event, Data: views(shown, Object{"mapId": m.ID, k.Field: all})})
	}
	if k.Sight {
		events = append(events,
			Event{Name: EventMapUpdated, Data: views(players, host)},
			Event{Name: EventLineOfSightUpdated, Data: views(sightsIn(players), sightsIn(host))})
	}
	return events, nil
}
