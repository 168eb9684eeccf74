package core

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// Marks: the map objects players make themselves (area templates,
// drawings, pins, rulers), through the same pipeline as the game master's
// (service_mapobjects.go), under the rule of their kind's row
// (MapKind.PlayerModes) and the interaction mode:
//
//   - in mode all, players make the kinds whose row lists "all"
//     (templates, drawings, pins, rulers); in mode token, those listing
//     "token" (templates and rulers), and only a player holding a seat;
//     in mode none, nothing. A spectator never does.
//   - a mark belongs to its maker, and only its maker (or the game master)
//     changes, moves or removes it. The owner is part of the mark's id,
//     "<owner>~<uuid>", which the server gives: the map's shapes (the
//     original's JSON Schemas) have no field for it, and an id travels
//     with the mark everywhere (exports, the map's document) and cannot be
//     changed. The owner is "seat-<character id>" for a seated player (the
//     mark stays theirs from any device), else "dev-" and a digest of the
//     device (its pass, its address, or for a client on this machine its
//     connection): never the pass itself.
//   - players mark only the map on the player screen, never hide a mark
//     (hidden, or the dm layer, is the game master's), and a pin they place
//     is seen (a marker is hidden by default).

// markOwnerSep separates the owner from the rest of a mark's id.
const markOwnerSep = "~"

// MarkOwner returns the owner a mark's id names, "" for the game master's.
func MarkOwner(id string) string {
	owner, _, ok := strings.Cut(id, markOwnerSep)
	if !ok {
		return ""
	}
	return owner
}

// markOwner is who a player's marks belong to, or an error when nothing
// names them.
func (p PlayerAccess) markOwner() (string, error) {
	if seat := p.s.seatHeld(p.who.Seat); seat != nil {
		return "seat-" + seat.EntityID, nil
	}
	if p.who.Device == "" {
		return "", Forbiddenf("a mark belongs to its maker: take a seat, or make it over the WebSocket, which names your device")
	}
	sum := sha256.Sum256([]byte(p.who.Device))
	return "dev-" + hex.EncodeToString(sum[:8]), nil
}

// markRights checks that the player may make, change or remove marks of k
// now, and returns whose they are.
func (p PlayerAccess) markRights(k *MapKind) (string, error) {
	if err := p.who.refuseSpectator("mark the map"); err != nil {
		return "", err
	}
	mode := p.s.live.Settings().Interaction
	if !slices.Contains(k.PlayerModes, mode) {
		if len(k.PlayerModes) == 0 {
			return "", Forbiddenf("only the game master places %ss", k.Noun)
		}
		return "", Conflictf("in interaction mode '%s' players do not place %ss", mode, k.Noun)
	}
	owner, err := p.markOwner()
	if err != nil {
		return "", err
	}
	if mode == InteractionToken && !strings.HasPrefix(owner, "seat-") {
		return "", Forbiddenf("in interaction mode 'token' only a player holding a seat marks the map")
	}
	return owner, nil
}

// markGuard is the check, inside the write, that the map is the one the
// player looks at, the player screen's or their seat's (players mark only
// the map they see; another is not found).
func (p PlayerAccess) markGuard(s pinned, mapID string) func(Tx) error {
	return func(tx Tx) error {
		vm, err := s.viewerMapIn(tx, p.who.Seat)
		if err != nil {
			return err
		}
		if vm == "" || vm != mapID {
			return NotFoundf("map '%s' is not on the player screen", Clip(mapID))
		}
		return nil
	}
}

// ownGuard adds to markGuard that the mark id is the player's, and that the
// game master has not locked it.
func (p PlayerAccess) ownGuard(s pinned, k *MapKind, mapID, id, owner string) func(Tx) error {
	onScreen := p.markGuard(s, mapID)
	return func(tx Tx) error {
		if err := onScreen(tx); err != nil {
			return err
		}
		m, err := mapByID(tx, mapID)
		if err != nil {
			return err
		}
		list, err := k.list.get(m)
		if err != nil {
			return err
		}
		i, err := objectIndex(k, list, mapID, id)
		if err != nil || objectHidden(list[i], k.HiddenByDefault) {
			return NotFoundf("map '%s' has no %s with id '%s'", Clip(mapID), k.Noun, Clip(id))
		}
		if MarkOwner(id) != owner {
			return Forbiddenf("this %s is someone else's: a player changes or removes only their own", k.Noun)
		}
		if locked, _ := list[i]["locked"].(bool); locked {
			return Forbiddenf("the game master locked this %s", k.Noun)
		}
		return nil
	}
}

// playerMark checks what a player sends in a mark: nothing hidden, no
// lock, and a pin that is seen.
func playerMark(k *MapKind, o Object) error {
	if hidden, _ := o["hidden"].(bool); hidden {
		return Forbiddenf("only the game master hides a %s", k.Noun)
	}
	if o["layer"] == "dm" {
		return Forbiddenf("only the game master draws on the GM layer")
	}
	if _, ok := o["locked"]; ok {
		return Forbiddenf("only the game master locks a %s", k.Noun)
	}
	if k.HiddenByDefault {
		if _, ok := o["hidden"]; !ok {
			o["hidden"] = false
		}
	}
	return nil
}

// AddMapObject is a player's new mark: stored with an id naming its maker,
// and returned as stored.
func (p PlayerAccess) AddMapObject(ctx context.Context, mapID, kind string, o Object) (Object, error) {
	k, err := MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	owner, err := p.markRights(k)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, Invalidf("a %s is a JSON object", k.Noun)
	}
	if _, ok := o["id"]; ok {
		return nil, Invalidf("the server names a player's %s: leave out 'id'", k.Noun)
	}
	if err := playerMark(k, o); err != nil {
		return nil, err
	}
	o["id"] = owner + markOwnerSep + NewID()
	s := p.s.pin()
	onScreen := p.markGuard(s, mapID)
	guard := func(tx Tx) error {
		if err := onScreen(tx); err != nil {
			return err
		}
		return ownMarksBelowLimit(tx, k, mapID, owner)
	}
	out, err := s.addMapObjects(ctx, mapID, k, []Object{o}, guard)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// MaxMarksPerPlayer bounds the marks of one kind one player keeps on a
// map (docs/limits.md): a table's worth of drawings, templates or pins,
// while the map's limit (MaxMapObjects) stays for the game master, so one
// player cannot fill a map for everyone.
const MaxMarksPerPlayer = 500

// ownMarksBelowLimit refuses a player's new mark when they hold
// MaxMarksPerPlayer of its kind on the map already.
func ownMarksBelowLimit(tx Tx, k *MapKind, mapID, owner string) error {
	m, err := mapByID(tx, mapID)
	if err != nil {
		return err
	}
	list, err := k.list.get(m)
	if err != nil {
		return err
	}
	n := 0
	for _, o := range list {
		if id, _ := o["id"].(string); MarkOwner(id) == owner {
			n++
		}
	}
	if n >= MaxMarksPerPlayer {
		return Conflictf("you have %d %ss on this map, the most one player may: remove some first", n, k.Noun)
	}
	return nil
}

// PatchMapObject is a player's change of their own mark.
func (p PlayerAccess) PatchMapObject(ctx context.Context, mapID, kind, id string, patch Object) (Object, error) {
	k, err := MapKindOf(kind)
	if err != nil {
		return nil, err
	}
	owner, err := p.markRights(k)
	if err != nil {
		return nil, err
	}
	if err := playerMark(&MapKind{Noun: k.Noun}, patch); err != nil {
		return nil, err
	}
	s := p.s.pin()
	return s.patchMapObject(ctx, mapID, k, id, patch, p.ownGuard(s, k, mapID, id, owner))
}

// DeleteMapObject removes a player's own mark; with id empty, every mark
// of the kind the player made on the map (clearing one's drawings).
func (p PlayerAccess) DeleteMapObject(ctx context.Context, mapID, kind, id string) error {
	k, err := MapKindOf(kind)
	if err != nil {
		return err
	}
	owner, err := p.markRights(k)
	if err != nil {
		return err
	}
	s := p.s.pin()
	if id == "" {
		mine := func(o Object) bool { oid, _ := o["id"].(string); return MarkOwner(oid) == owner }
		return s.deleteMapObjects(ctx, mapID, k, mine, "", p.markGuard(s, mapID))
	}
	return s.deleteMapObjects(ctx, mapID, k, func(o Object) bool { return o["id"] == id }, id, p.ownGuard(s, k, mapID, id, owner))
}
