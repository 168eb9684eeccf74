package play

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
)

// MoveAsHost handles one tokenMoved message from the game master's console.
// The game master moves any token: remote interaction, a lock and the
// hidden flag never refuse it, and a player's drag of the same token gives
// way (the player's next message is answered with block). The stream is
// broadcast as a player's is, so players see the move animate; the drag of
// a token players do not see (hidden, or on a map off the player screen)
// goes to the host alone (dragData), since players must not learn where it
// stands. Only end writes to the store.
func (d *Drags) MoveAsHost(ctx context.Context, from core.EventSource, m core.Movement) (*core.Movement, error) {
	if err := checkMovement(m); err != nil {
		return nil, err
	}
	src := from
	m.Source = &src

	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.recount()
	tok, shown, err := d.svc.dragToken(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	m.MapID = tok.MapID
	party := redact.PartySight(tok)
	own := d.active[m.ID]
	if own == nil && (m.State == core.DragCancel || m.State == core.DragBlock) {
		return nil, nil // no drag of this token to abandon (as Move)
	}
	if own != nil && own.source != from.ID {
		own = nil // the game master takes the token over
	}
	sight, err := d.svc.dragSightOf(ctx, tok)
	if err != nil {
		return nil, err
	}
	sight.Cast(&m)
	switch m.State {
	case core.DragStart, core.DragControl:
		if own == nil || m.State == core.DragStart {
			own = &drag{source: from.ID, startX: tok.X, startY: tok.Y, host: true}
			d.active[m.ID] = own
		}
		own.lastSeen = d.svc.Now()
		own.mapID, own.party, own.unseen = tok.MapID, party, !shown
		d.svc.Publish(core.Event{Name: core.EventTokenMoved, Data: dragData(&m, shown, party)})
		return nil, nil
	case core.DragEnd:
		delete(d.active, m.ID)
		svc := d.svc.pin()
		return nil, svc.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
			t, err := kernel.TokenByID(tx, m.ID)
			if err != nil {
				return nil, err
			}
			maps, err := svc.PlayerMapsIn(tx)
			if err != nil {
				return nil, err
			}
			t.X, t.Y = m.X, m.Y
			events, err := svc.StoreToken(tx, t)
			if err != nil {
				return nil, err
			}
			return append([]core.Event{{Name: core.EventTokenMoved, Data: dragData(&m, maps.TokenShown(t), redact.PartySight(t))}}, events...), nil
		})
	default: // cancel or block: back to where the drag started
		delete(d.active, m.ID)
		m.X, m.Y = tok.X, tok.Y
		if own != nil {
			m.X, m.Y = own.startX, own.startY
		}
		m.Path, m.Polygon, m.Distance = nil, nil, ""
		sight.Cast(&m)
		d.svc.Publish(core.Event{Name: core.EventTokenMoved, Data: dragData(&m, shown, party)})
		return nil, nil
	}
}
