package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
)

// Snapshot assembles GET /api for the loaded system's primary campaign:
// the game with its combatants, the map on the player screen, the screen,
// the 30 most recent messages everyone reads (oldest first; SeatMessages
// are a seated player's), tracked objects and pause.
// Hidden combatants and hidden map objects are left out (playerGameIn,
// PlayerMap): the snapshot is what players see.
func (s *Kernel) Snapshot(ctx context.Context) (*core.Snapshot, error) {
	return s.SnapshotOn(ctx, "")
}

// SnapshotOn is Snapshot with the map onMap in place of the screen's ("" for
// the screen's): GET /api for a player whose seat the game master put on a
// map of its own (seatmaps.go). The screen itself is unchanged: displays
// still show it.
func (s *Kernel) SnapshotOn(ctx context.Context, onMap string) (*core.Snapshot, error) {
	p := s.Pin()
	snap := &core.Snapshot{Version: core.Version, Build: core.Build}
	err := p.Store.View(ctx, func(tx core.Tx) error {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return err
		}
		game, err := tx.Game(c.ID)
		if err != nil {
			return err
		}
		combatants, err := tx.Combatants(c.ID)
		if err != nil {
			return err
		}
		game.Combatants = combatants
		if snap.Game, err = p.playerGameIn(tx, game); err != nil {
			return err
		}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return err
		}
		snap.Screen = screen
		if onMap == "" {
			onMap = screen.MapID
		}
		if onMap != "" {
			m, err := tx.Map(onMap)
			switch {
			case core.IsNotFound(err):
				// The map was deleted; the screen shows none.
			case err != nil:
				return err
			default:
				sources, err := p.healthSources(tx, combatants)
				if err != nil {
					return err
				}
				snap.Map = p.playerMap(m, sources)
			}
		}
		snap.Messages, err = tx.RecentMessagesFor(c.ID, "", core.RecentMessageCount)
		return err
	})
	if err != nil {
		return nil, err
	}
	if snap.Messages == nil {
		snap.Messages = []*core.Message{}
	}
	snap.Messages = trimSnapshotMessages(snap.Messages)
	snap.TrackedObjects = p.LiveState.TrackedObjects()
	settings := p.LiveState.Settings()
	snap.Paused = settings.Paused
	p.LiveScreen(snap.Screen)
	return snap, nil
}

// SeatMessages returns the RecentMessageCount most recent messages a
// player holding seat (the hash of their seat token) reads, oldest first:
// those for everyone and the whispers and private rolls they sent or were
// sent (whisper.go). GET /api carries them in place of the snapshot's for
// a request naming a seat.
func (s *Kernel) SeatMessages(ctx context.Context, seat string) ([]*core.Message, error) {
	p := s.Pin()
	var out []*core.Message
	err := p.Store.View(ctx, func(tx core.Tx) error {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return err
		}
		out, err = tx.RecentMessagesFor(c.ID, seat, core.RecentMessageCount)
		return err
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []*core.Message{}
	}
	return trimSnapshotMessages(out), nil
}
