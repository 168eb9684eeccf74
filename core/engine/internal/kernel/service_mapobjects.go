package kernel

import (
	"context"
	"encoding/json"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/core/redact"
)

// AddMapObjects is AddMapObjects of a kind, after guard (nil: the game
// master's write) allowed it in the write's transaction.
func (s Pinned) AddMapObjects(ctx context.Context, mapID string, k *mapobjects.MapKind, objects []core.Object, guard func(core.Tx) error) ([]core.Object, error) {
	switch {
	case len(objects) == 0:
		return nil, core.Invalidf("nothing to add: send a %s or a list of them", k.Noun)
	case len(objects) > mapobjects.MaxMapObjectsPerWrite:
		return nil, core.Invalidf("%d %ss in one request: at most %d at a time", len(objects), k.Noun, mapobjects.MaxMapObjectsPerWrite)
	}
	for _, o := range objects {
		if o == nil {
			return nil, core.Invalidf("each %s is a JSON object", k.Noun)
		}
		if _, ok := o["id"]; !ok {
			o["id"] = core.NewID()
		}
		if err := CheckCommon(k, o); err != nil {
			return nil, err
		}
	}
	var out []core.Object
	err := s.changeMapObjects(ctx, mapID, k, guard, func(list []core.Object) ([]core.Object, error) {
		taken := make(map[string]bool, len(list)+len(objects))
		for _, o := range list {
			if id, _ := o["id"].(string); id != "" {
				taken[id] = true
			}
		}
		for _, o := range objects {
			id := o["id"].(string)
			if taken[id] {
				return nil, core.Conflictf("map already has a %s with id '%s'", k.Noun, core.Clip(id))
			}
			taken[id] = true
		}
		if n := len(list) + len(objects); n > mapobjects.MaxMapObjects {
			return nil, core.Invalidf("the map would hold %d %ss, more than the limit of %d", n, k.Noun, mapobjects.MaxMapObjects)
		}
		out = objects
		return append(append(make([]core.Object, 0, len(list)+len(objects)), list...), objects...), nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PatchMapObject is PatchMapObject of a kind, after guard allowed it.
func (s Pinned) PatchMapObject(ctx context.Context, mapID string, k *mapobjects.MapKind, id string, patch core.Object, guard func(core.Tx) error) (core.Object, error) {
	if err := CheckPatchID(patch, id); err != nil {
		return nil, err
	}
	var out core.Object
	err := s.changeMapObjects(ctx, mapID, k, guard, func(list []core.Object) ([]core.Object, error) {
		i, err := ObjectIndex(k, list, mapID, id)
		if err != nil {
			return nil, err
		}
		merged, err := CopyObject(list[i])
		if err != nil {
			return nil, err
		}
		merged, _ = core.MergePatch(merged, map[string]any(patch)).(map[string]any)
		merged["id"] = id
		if err := CheckCommon(k, merged); err != nil {
			return nil, err
		}
		list = append([]core.Object(nil), list...)
		list[i], out = merged, merged
		return list, nil
	})
	return out, err
}

// DeleteMapObjects removes the objects of a kind that match, after guard
// allowed it; one (named id) must match when id is not empty.
func (s Pinned) DeleteMapObjects(ctx context.Context, mapID string, k *mapobjects.MapKind, match func(core.Object) bool, id string, guard func(core.Tx) error) error {
	return s.changeMapObjects(ctx, mapID, k, guard, func(list []core.Object) ([]core.Object, error) {
		if id != "" {
			if _, err := ObjectIndex(k, list, mapID, id); err != nil {
				return nil, err
			}
		}
		out := make([]core.Object, 0, len(list))
		for _, o := range list {
			if !match(o) {
				out = append(out, o)
			}
		}
		return out, nil
	})
}

func ObjectIndex(k *mapobjects.MapKind, list []core.Object, mapID, id string) (int, error) {
	for i, o := range list {
		if o["id"] == id {
			return i, nil
		}
	}
	return -1, core.NotFoundf("map '%s' has no %s with id '%s'", core.Clip(mapID), k.Noun, core.Clip(id))
}

// CopyObject is a deep copy of o, for a patch that must not touch the list
// read from the map until it is stored.
func CopyObject(o core.Object) (core.Object, error) {
	raw, err := json.Marshal(o)
	if err != nil {
		return nil, core.Internal(err)
	}
	var out core.Object
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, core.Internal(err)
	}
	return out, nil
}

// changeMapObjects runs change on a kind's list of a map in one write
// transaction, stores the list it returns and broadcasts the kind's events:
// to players only when the map is on the player screen, as they see it.
// A map deleted meanwhile is a 404 and nothing is stored. guard, when not
// nil, may refuse the write first (a player's: marks.go).
func (s Pinned) changeMapObjects(ctx context.Context, mapID string, k *mapobjects.MapKind, guard func(core.Tx) error, change func([]core.Object) ([]core.Object, error)) error {
	return s.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		if guard != nil {
			if err := guard(tx); err != nil {
				return nil, err
			}
		}
		m, err := MapByID(tx, mapID)
		if err != nil {
			return nil, err
		}
		list, err := k.List.Get(m)
		if err != nil {
			return nil, err
		}
		list, err = change(list)
		if err != nil {
			return nil, err
		}
		if err := k.List.Put(m, list); err != nil {
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
func (s Pinned) mapObjectEvents(tx core.Tx, k *mapobjects.MapKind, m *core.Map) ([]core.Event, error) {
	players, err := s.PlayerMapIn(tx, m)
	if err != nil {
		return nil, err
	}
	host, err := s.HostMapIn(tx, m)
	if err != nil {
		return nil, err
	}
	onScreen, err := s.PlayersSee(tx, m.ID)
	if err != nil {
		return nil, err
	}
	views := func(forPlayers, forHost any) redact.Views {
		if !onScreen {
			return redact.HostOnly(forHost)
		}
		return redact.Views{Players: forPlayers, Host: forHost, Map: m.ID}
	}
	var events []core.Event
	if k.Event != "" {
		shown, err := k.List.Get(players)
		if err != nil {
			return nil, err
		}
		all, err := k.List.Get(host)
		if err != nil {
			return nil, err
		}
		// Players get the bare list, as the original sends it (the
		// Encounter+ web client sets the map's field to the event's data);
		// they only hear of the map on the player screen. The host console,
		// which also prepares maps off screen, gets {mapId, <field>}.
		events = append(events, core.Event{Name: k.Event, Data: views(shown, core.Object{"mapId": m.ID, k.Field: all})})
	}
	if k.Sight {
		events = append(events,
			core.Event{Name: core.EventMapUpdated, Data: views(players, host)},
			core.Event{Name: core.EventLineOfSightUpdated, Data: views(redact.SightsIn(players), redact.SightsIn(host))})
	}
	return events, nil
}
