package play

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
)

// Drags follows the token drags in progress (contract 3). A drag is a
// stream of tokenMoved messages from one client: start, control..., then
// end (commit), cancel (abandon) or block (the host refused). The stream is
// re-broadcast to every client, the sender included; only end writes to the
// store. Each Service has one (Service.Drags), which it tells of every
// change, so that a drag that loses its right ends at once
// (dragsweep.go). It is safe for concurrent use.
type Drags struct {
	svc *PlayRoom

	mu     sync.Mutex // held across a message's check and publish, so a token's stream stays in order
	active map[string]*drag
	// vetoed remembers, per token, the drag the host refused (Veto): its
	// client's messages sent before the block reached it must not start
	// the drag again, and its end must not commit the refused move.
	vetoed map[string]vetoedDrag
	// actors says who each connection is (its role and seat), for the
	// rights of dragrights.go; the hub keeps it (SetActor).
	actors map[string]core.Actor
	// count mirrors len(active) for readers that must not take mu (the
	// service tells of its events under its commit lock).
	count atomic.Int32

	// sweepMu guards sweeping (a sweep runs) and sweepAgain (a change
	// came while it ran): dragsweep.go.
	sweepMu              sync.Mutex
	sweeping, sweepAgain bool
}

// drag is one token being dragged.
type drag struct {
	source         string // id of the client dragging
	startX, startY float64
	lastSeen       time.Time
	// checked is the service generation at which the token was last found
	// present and unlocked. Every write goes through the service and moves
	// the generation, so while it is unchanged a control message needs no
	// store read: at 60 messages a second that read would cost more than
	// the broadcast.
	checked uint64
	// sight is what the token's vision polygon is cast against, read with
	// the token (nil when the token has no vision or its map no line of
	// sight): each control and the end carry the polygon (sightpayload.go).
	sight *redact.DragSight
	// mapID is the token's map, which every message of the drag names;
	// party, that players may see the token's polygon (PartySight).
	mapID string
	party bool
	// host marks the game master's drag (hostdrag.go): no sweep ends it;
	// unseen, that players do not see its token (hidden, or on a map off
	// the player screen), so its messages reach the host alone.
	host, unseen bool
}

// vetoedDrag is a drag the host refused: who dragged, and when their last
// message came.
type vetoedDrag struct {
	source   string
	lastSeen time.Time
}

// NewDrags returns a drag tracker over svc (the service's own is
// Service.Drags).
func NewDrags(svc *PlayRoom) *Drags {
	return &Drags{svc: svc, active: map[string]*drag{}, actors: map[string]core.Actor{}, vetoed: map[string]vetoedDrag{}}
}

// lateAfterVeto reports whether m belongs to a drag the host vetoed: a
// control or end from the same client before it starts another drag. Such
// a message is refused (the sender snaps back) instead of being taken as a
// new start, which would undo the veto. The refused drag is forgotten at
// its client's next start, end, cancel or block, or after DragIdleTimeout
// of silence (a client that never sends an end).
func (d *Drags) lateAfterVeto(from string, m core.Movement, now time.Time) bool {
	v, ok := d.vetoed[m.ID]
	if !ok {
		return false
	}
	if now.Sub(v.lastSeen) >= core.DragIdleTimeout {
		delete(d.vetoed, m.ID)
		return false
	}
	if v.source != from {
		return false // another client's drag: judged as any other
	}
	switch m.State {
	case core.DragControl:
		d.vetoed[m.ID] = vetoedDrag{source: from, lastSeen: now}
		return true
	case core.DragEnd:
		delete(d.vetoed, m.ID)
		return true
	}
	delete(d.vetoed, m.ID) // a new start, or the client's own cancel
	return false
}

// errDragVetoed ends a commit whose token was deleted or locked between the
// check and the transaction.
var errDragVetoed = errors.New("token deleted or locked during the drag")

// Move handles one tokenMoved message from the client from. It returns the
// movement to send to that client alone (a block: snap back to the token's
// committed position) or nil when the message was re-broadcast. Errors are
// for malformed messages and unknown tokens.
//
// The host's veto: with remote interaction off, a locked token, or a token
// another client is dragging, the sender gets block. A token deleted or
// locked mid-drag ends the drag with block for everyone, since everyone saw
// it start.
func (d *Drags) Move(ctx context.Context, from core.EventSource, m core.Movement) (*core.Movement, error) {
	if err := checkMovement(m); err != nil {
		return nil, err
	}
	src := from
	m.Source = &src

	m.MapID = "" // the server names the token's map, never the client
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.recount()
	now := d.svc.Now()
	if d.lateAfterVeto(from.ID, m, now) {
		return d.blockSender(ctx, m)
	}
	own := d.active[m.ID]
	if own != nil && own.source != from.ID {
		if now.Sub(own.lastSeen) < core.DragIdleTimeout {
			return d.blockSender(ctx, m) // another client holds this token
		}
		delete(d.active, m.ID) // abandoned: the token is free again
		own = nil
	}
	if own == nil && (m.State == core.DragCancel || m.State == core.DragBlock) {
		// Nothing to abandon: no drag of this token is in progress (it
		// ended, was refused, or never began). Passed on, it would tell
		// every client to put back a token nobody moved.
		return nil, nil
	}

	if settings := d.svc.LiveState.Settings(); !settings.RemoteInteraction || settings.Paused {
		// A pause stops players' moves as remote interaction off does: the
		// real web client makes every token inert while paused, and so does
		// ours (permissions.ts), so the server holds every client to it.
		if own != nil {
			// Everyone saw this drag start: everyone snaps back.
			delete(d.active, m.ID)
			return nil, d.blockAll(ctx, m, own)
		}
		return d.blockSender(ctx, m)
	}

	gen := d.svc.Generation() // read before the store, so a later write is never missed
	if m.State == core.DragControl && own != nil && own.checked == gen {
		own.lastSeen = now
		m.MapID = own.mapID
		own.sight.Cast(&m)
		d.svc.Publish(core.Event{Name: core.EventTokenMoved, Data: dragData(&m, true, own.party)})
		return nil, nil
	}
	tok, shown, err := d.svc.dragToken(ctx, m.ID)
	if err != nil && !core.IsNotFound(err) {
		return nil, err
	}
	if err == nil {
		m.MapID = tok.MapID
		// A split party: a token on another seat's map does not exist for
		// the sender, who looks at another map (seatmaps.go).
		shown = shown && tok.MapID == d.svc.ViewerMap(d.actors[from.ID].Seat)
	}
	if err == nil && !shown {
		// Players may not see a hidden token, or one on a map off the
		// player screen, so they may not drag it, and the refusal must not
		// tell them where it stands: to the sender it does not exist; a
		// drag they already saw ends where it started.
		if own != nil && !own.unseen {
			delete(d.active, m.ID)
			d.svc.Publish(core.Event{Name: core.EventTokenMoved, Data: blockAt(m, own.startX, own.startY)})
			return nil, nil
		}
		return nil, core.NotFoundf("no token with id '%s'", core.Clip(m.ID))
	}
	if err != nil || tok.Locked {
		if own != nil {
			delete(d.active, m.ID)
			return nil, d.blockAll(ctx, m, own)
		}
		if err != nil {
			return nil, err // no such token and no drag of it: tell the sender
		}
		return d.blockSender(ctx, m)
	}

	if !d.mayMove(from.ID, tok) {
		if own != nil {
			delete(d.active, m.ID)
			return nil, d.blockAll(ctx, m, own)
		}
		return blockAt(m, tok.X, tok.Y), nil
	}

	switch m.State {
	case core.DragStart, core.DragControl:
		if own == nil || m.State == core.DragStart {
			// A control without a start is taken as a start: the client
			// may have missed sending it, the drag is still real.
			own = &drag{source: from.ID, startX: tok.X, startY: tok.Y}
			d.active[m.ID] = own
			// Counted before the start is broadcast: whoever sees it and
			// changes what the drag may do must find it in progress (the
			// hub sweeps only then).
			d.recount()
		}
		own.lastSeen = now
		own.checked = gen
		own.mapID, own.party = tok.MapID, redact.PartySight(tok)
		if own.sight, err = d.svc.dragSightOf(ctx, tok); err != nil {
			return nil, err
		}
		own.sight.Cast(&m)
		d.svc.Publish(core.Event{Name: core.EventTokenMoved, Data: dragData(&m, true, own.party)})
		return nil, nil

	case core.DragEnd:
		delete(d.active, m.ID)
		sight, err := d.svc.dragSightOf(ctx, tok)
		if err != nil {
			return nil, err
		}
		sight.Cast(&m)
		err = d.commit(ctx, m, redact.PartySight(tok))
		if errors.Is(err, errDragVetoed) {
			if own == nil {
				own = &drag{source: from.ID, startX: tok.X, startY: tok.Y}
			}
			return nil, d.blockAll(ctx, m, own)
		}
		return nil, err

	default: // cancel, or block sent by a client: abandon and restore the start
		delete(d.active, m.ID)
		m.X, m.Y = tok.X, tok.Y
		if own != nil {
			m.X, m.Y = own.startX, own.startY
		}
		m.Path, m.Polygon, m.Distance = nil, nil, ""
		// The vision goes back with the token: clients drew the polygons of
		// the drag.
		sight, err := d.svc.dragSightOf(ctx, tok)
		if err != nil {
			return nil, err
		}
		sight.Cast(&m)
		d.svc.Publish(core.Event{Name: core.EventTokenMoved, Data: dragData(&m, true, redact.PartySight(tok))})
		return nil, nil
	}
}

// commit stores the end position of a drag in one transaction and
// broadcasts the end of the stream followed by tokenUpdated. party says
// whether players see the token's polygon (PartySight).
func (d *Drags) commit(ctx context.Context, m core.Movement, party bool) error {
	svc := d.svc.pin()
	return svc.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		t, err := tx.Token(m.ID)
		if core.IsNotFound(err) {
			return nil, errDragVetoed
		}
		if err != nil {
			return nil, err
		}
		maps, err := svc.PlayerMapsIn(tx)
		if err != nil {
			return nil, err
		}
		// Locked, hidden or off the player screen since the drag's last
		// check (the GM acted while the player was dragging): the end is
		// not broadcast, the drag is vetoed, and blockAll keeps a token
		// players no longer see to the host.
		if t.Locked || !maps.TokenShown(t) {
			return nil, errDragVetoed
		}
		t.X, t.Y = m.X, m.Y
		events, err := svc.StoreToken(tx, t)
		if err != nil {
			return nil, err
		}
		return append([]core.Event{{Name: core.EventTokenMoved, Data: dragData(&m, true, party)}}, events...), nil
	})
}

// blockSender answers the sender alone with block at the token's committed
// position; a token players do not see does not exist for the sender.
func (d *Drags) blockSender(ctx context.Context, m core.Movement) (*core.Movement, error) {
	tok, err := d.svc.ReadToken(ctx, m.ID, true)
	if err != nil {
		return nil, err
	}
	m.MapID = tok.MapID
	return blockAt(m, tok.X, tok.Y), nil
}

// blockAll ends a drag everyone saw: every client snaps the token back to
// its committed position, or to where the drag started when the token is
// gone.
func (d *Drags) blockAll(ctx context.Context, m core.Movement, own *drag) error {
	x, y := own.startX, own.startY
	var sight *redact.DragSight
	m.MapID = own.mapID
	tok, shown, err := d.svc.dragToken(ctx, m.ID)
	switch {
	case err == nil:
		x, y, m.MapID = tok.X, tok.Y, tok.MapID
		if sight, err = d.svc.dragSightOf(ctx, tok); err != nil {
			return err
		}
	case !core.IsNotFound(err):
		return err
	}
	block := blockAt(m, x, y)
	sight.Cast(block) // everyone drew the drag's polygons: the vision goes back too
	// A token players no longer see (hidden, off the screen) snaps back for
	// the game master alone: its position is not theirs to learn.
	d.svc.Publish(core.Event{Name: core.EventTokenMoved, Data: dragData(block, tok == nil || shown, tok != nil && redact.PartySight(tok))})
	return nil
}

// dragToken reads a dragged token and whether players see it
// (TokenShown).
func (s *PlayRoom) dragToken(ctx context.Context, id string) (tok *core.Token, shown bool, err error) {
	p := s.pin()
	err = p.Store.View(ctx, func(tx core.Tx) error {
		if tok, err = kernel.TokenByID(tx, id); err != nil {
			return err
		}
		maps, err := p.PlayerMapsIn(tx)
		shown = maps.TokenShown(tok)
		return err
	})
	return tok, shown, err
}

// dragData is a tokenMoved payload: for everyone when players see the
// token (shown), else for the game master alone; the polygon of a token
// whose sight players do not receive (party false, see PartySight) goes
// to the game master alone.
func dragData(m *core.Movement, shown, party bool) any {
	switch {
	case !shown:
		return redact.HostOnly(m)
	case party || m.Polygon == nil:
		return m
	}
	players := *m
	players.Polygon = nil
	return redact.Views{Players: &players, Host: m}
}

// checkMovement reports a tokenMoved message without a token or with an
// unknown state.
func checkMovement(m core.Movement) error {
	if m.ID == "" {
		return core.Invalidf("tokenMoved: 'id' (the token's id) is required")
	}
	switch m.State {
	case core.DragStart, core.DragControl, core.DragEnd, core.DragCancel, core.DragBlock:
		return nil
	}
	return core.Invalidf("tokenMoved: 'state' must be start, control, end, block or cancel, not '%s'", m.State)
}

func blockAt(m core.Movement, x, y float64) *core.Movement {
	return &core.Movement{ID: m.ID, MapID: m.MapID, X: x, Y: y, State: core.DragBlock, Source: m.Source}
}

func (d *Drags) recount() { d.count.Store(int32(len(d.active))) }

// Active reports how many drags are in progress. It takes no lock.
func (d *Drags) Active() int { return int(d.count.Load()) }

// Veto ends the drag of a token, if any, with block for every client: the
// host's refusal. It reports whether a drag was in progress.
func (d *Drags) Veto(ctx context.Context, tokenID string) (bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.recount()
	own := d.active[tokenID]
	if own == nil {
		return false, nil
	}
	delete(d.active, tokenID)
	d.vetoed[tokenID] = vetoedDrag{source: own.source, lastSeen: d.svc.Now()}
	src := core.EventSource{ID: own.source}
	return true, d.blockAll(ctx, core.Movement{ID: tokenID, Source: &src}, own)
}

// Release cancels every drag of a client that went away: each token goes
// back to where its drag started, on every display.
func (d *Drags) Release(clientID string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.recount()
	delete(d.actors, clientID)
	for id, v := range d.vetoed {
		if v.source == clientID {
			delete(d.vetoed, id)
		}
	}
	for id, own := range d.active {
		if own.source != clientID {
			continue
		}
		delete(d.active, id)
		src := core.EventSource{ID: clientID}
		cancel := &core.Movement{ID: id, MapID: own.mapID, X: own.startX, Y: own.startY, State: core.DragCancel, Source: &src}
		d.svc.Publish(core.Event{Name: core.EventTokenMoved, Data: dragData(cancel, !own.unseen, own.party)})
	}
}

// Dragging reports which client drags a token ("" when none).
func (d *Drags) Dragging(tokenID string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if own := d.active[tokenID]; own != nil {
		return own.source
	}
	return ""
}
