package mapobjects

import (
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

// MarkOwnerSep separates the owner from the rest of a mark's id.
const MarkOwnerSep = "~"

// MarkOwner returns the owner a mark's id names, "" for the game master's.
func MarkOwner(id string) string {
	owner, _, ok := strings.Cut(id, MarkOwnerSep)
	if !ok {
		return ""
	}
	return owner
}

// MaxMarksPerPlayer bounds the marks of one kind one player keeps on a
// map (docs/limits.md): a table's worth of drawings, templates or pins,
// while the map's limit (MaxMapObjects) stays for the game master, so one
// player cannot fill a map for everyone.
const MaxMarksPerPlayer = 500
