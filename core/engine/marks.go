package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
)

// markOwner is who a player's marks belong to, or an error when nothing
// names them.
func (p PlayerAccess) markOwner() (string, error) {
	if seat := p.s.kernel.HeldSeatOf(p.who.Seat); seat != nil {
		return "seat-" + seat.EntityID, nil
	}
	if p.who.Device == "" {
		return "", core.Forbiddenf("a mark belongs to its maker: take a seat, or make it over the WebSocket, which names your device")
	}
	sum := sha256.Sum256([]byte(p.who.Device))
	return "dev-" + hex.EncodeToString(sum[:8]), nil
}

// markRights checks that the player may make, change or remove marks of k
// now, and returns whose they are.
func (p PlayerAccess) markRights(k *mapobjects.MapKind) (string, error) {
	if err := p.who.RefuseSpectator("mark the map"); err != nil {
		return "", err
	}
	mode := p.s.kernel.LiveState.Settings().Interaction
	if !slices.Contains(k.PlayerModes, mode) {
		if len(k.PlayerModes) == 0 {
			return "", core.Forbiddenf("only the game master places %ss", k.Noun)
		}
		return "", core.Conflictf("in interaction mode '%s' players do not place %ss", mode, k.Noun)
	}
	owner, err := p.markOwner()
	if err != nil {
		return "", err
	}
	if mode == core.InteractionToken && !strings.HasPrefix(owner, "seat-") {
		return "", core.Forbiddenf("in interaction mode 'token' only a player holding a seat marks the map")
	}
	return owner, nil
}

// markGuard is the check, inside the write, that the map is the one the
// player looks at, the player screen's or their seat's (players mark only
// the map they see; another is not found).
func (p PlayerAccess) markGuard(s kernel.Pinned, mapID string) func(core.Tx) error {
	return func(tx core.Tx) error {
		vm, err := s.ViewerMapIn(tx, p.who.Seat)
		if err != nil {
			return err
		}
		if vm == "" || vm != mapID {
			return core.NotFoundf("map '%s' is not on the player screen", core.Clip(mapID))
		}
		return nil
	}
}

// ownGuard adds to markGuard that the mark id is the player's, and that the
// game master has not locked it.
func (p PlayerAccess) ownGuard(s kernel.Pinned, k *mapobjects.MapKind, mapID, id, owner string) func(core.Tx) error {
	onScreen := p.markGuard(s, mapID)
	return func(tx core.Tx) error {
		if err := onScreen(tx); err != nil {
			return err
		}
		m, err := kernel.MapByID(tx, mapID)
		if err != nil {
			return err
		}
		list, err := k.List.Get(m)
		if err != nil {
			return err
		}
		i, err := kernel.ObjectIndex(k, list, mapID, id)
		if err != nil || core.ObjectHidden(list[i], k.HiddenByDefault) {
			return core.NotFoundf("map '%s' has no %s with id '%s'", core.Clip(mapID), k.Noun, core.Clip(id))
		}
		if mapobjects.MarkOwner(id) != owner {
			return core.Forbiddenf("this %s is someone else's: a player changes or removes only their own", k.Noun)
		}
		if locked, _ := list[i]["locked"].(bool); locked {
			return core.Forbiddenf("the game master locked this %s", k.Noun)
		}
		return nil
	}
}

// AddMapObject is a player's new mark: stored with an id naming its maker,
// and returned as stored.
func (p PlayerAccess) AddMapObject(ctx context.Context, mapID, kind string, o core.Object) (core.Object, error) {
	k, err := mapobjects.MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	owner, err := p.markRights(k)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, core.Invalidf("a %s is a JSON object", k.Noun)
	}
	if _, ok := o["id"]; ok {
		return nil, core.Invalidf("the server names a player's %s: leave out 'id'", k.Noun)
	}
	if err := kernel.PlayerMark(k, o); err != nil {
		return nil, err
	}
	o["id"] = owner + mapobjects.MarkOwnerSep + core.NewID()
	s := p.s.kernel.Pin()
	onScreen := p.markGuard(s, mapID)
	guard := func(tx core.Tx) error {
		if err := onScreen(tx); err != nil {
			return err
		}
		return kernel.OwnMarksBelowLimit(tx, k, mapID, owner)
	}
	out, err := s.AddMapObjects(ctx, mapID, k, []core.Object{o}, guard)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// PatchMapObject is a player's change of their own mark.
func (p PlayerAccess) PatchMapObject(ctx context.Context, mapID, kind, id string, patch core.Object) (core.Object, error) {
	k, err := mapobjects.MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	owner, err := p.markRights(k)
	if err != nil {
		return nil, err
	}
	if err := kernel.PlayerMark(&mapobjects.MapKind{Noun: k.Noun}, patch); err != nil {
		return nil, err
	}
	s := p.s.kernel.Pin()
	return s.PatchMapObject(ctx, mapID, k, id, patch, p.ownGuard(s, k, mapID, id, owner))
}

// DeleteMapObject removes a player's own mark; with id empty, every mark
// of the kind the player made on the map (clearing one's drawings).
func (p PlayerAccess) DeleteMapObject(ctx context.Context, mapID, kind, id string) error {
	k, err := mapobjects.MapKindOf(kind)
	if err != nil {
		return err
	}
	owner, err := p.markRights(k)
	if err != nil {
		return err
	}
	s := p.s.kernel.Pin()
	if id == "" {
		mine := func(o core.Object) bool { oid, _ := o["id"].(string); return mapobjects.MarkOwner(oid) == owner }
		return s.DeleteMapObjects(ctx, mapID, k, mine, "", p.markGuard(s, mapID))
	}
	return s.DeleteMapObjects(ctx, mapID, k, func(o core.Object) bool { return o["id"] == id }, id, p.ownGuard(s, k, mapID, id, owner))
}
