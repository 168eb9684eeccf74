package core

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// DragIdleTimeout is how long a drag may stay silent before another client
// may take the token over: a browser that vanished mid-drag must not hold
// a token forever.
const DragIdleTimeout = 10 * time.Second

// Drags follows the token drags in progress (contract 3). A drag is a
// stream of tokenMoved messages from one client: start, control..., then
// end (commit), cancel (abandon) or block (the host refused). The stream is
// re-broadcast to every client, the sender included; only end writes to the
// store. It is safe for concurrent use.
type Drags struct {
	svc *Service

	mu     sync.Mutex // held across a message's check and publish, so a token's stream stays in order
	active map[string]*drag
	// owners maps a player token to the client that plays it, for
	// remote interaction "token" (dragrights.go).
	owners map[string]string
	// count mirrors len(active) for readers that must not take mu (the
	// hub's bus subscriber runs under the service's lock).
	count atomic.Int32
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
	sight *dragSight
	// host marks the game master's drag (hostdrag.go): no sweep ends it;
	// hidden, that its token is hidden, so its end reaches the host alone.
	host, hidden bool
}

// NewDrags returns a drag tracker over svc.
func NewDrags(svc *Service) *Drags {
	return &Drags{svc: svc, active: map[string]*drag{}, owners: map[string]string{}}
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
func (d *Drags) Move(ctx context.Context, from EventSource, m Movement) (*Movement, error) {
	if err := checkMovement(m); err != nil {
		return nil, err
	}
	src := from
	m.Source = &src

	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.recount()
	now := d.svc.now()
	own := d.active[m.ID]
	if own != nil && own.source != from.ID {
		if now.Sub(own.lastSeen) < DragIdleTimeout {
			return d.blockSender(ctx, m) // another client holds this token
		}
		delete(d.active, m.ID) // abandoned: the token is free again
		own = nil
	}

	if !d.svc.live.Settings().RemoteInteraction {
		if own != nil {
			// Everyone saw this drag start: everyone snaps back.
			delete(d.active, m.ID)
			return nil, d.blockAll(ctx, m, own)
		}
		return d.blockSender(ctx, m)
	}

	gen := d.svc.Generation() // read before the store, so a later write is never missed
	if m.State == DragControl && own != nil && own.checked == gen {
		own.lastSeen = now
		own.sight.cast(&m)
		d.svc.Publish(Event{Name: EventTokenMoved, Data: &m})
		return nil, nil
	}
	tok, err := d.svc.Token(ctx, m.ID)
	if err != nil && !IsNotFound(err) {
		return nil, err
	}
	if err == nil && tok.Hidden {
		// Players may not see a hidden token, so they may not drag it, and
		// the refusal must not tell them where it stands: to the sender it
		// does not exist; a drag already seen ends where it started.
		if own != nil {
			delete(d.active, m.ID)
			d.svc.Publish(Event{Name: EventTokenMoved, Data: blockAt(m, own.startX, own.startY)})
			return nil, nil
		}
		return nil, NotFoundf("no token with id '%s'", Clip(m.ID))
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
	case DragStart, DragControl:
		if own == nil || m.State == DragStart {
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
		if own.sight, err = d.svc.dragSightOf(ctx, tok); err != nil {
			return nil, err
		}
		own.sight.cast(&m)
		d.svc.Publish(Event{Name: EventTokenMoved, Data: &m})
		return nil, nil

	case DragEnd:
		delete(d.active, m.ID)
		sight, err := d.svc.dragSightOf(ctx, tok)
		if err != nil {
			return nil, err
		}
		sight.cast(&m)
		err = d.commit(ctx, m)
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
		sight.cast(&m)
		d.svc.Publish(Event{Name: EventTokenMoved, Data: &m})
		return nil, nil
	}
}

// commit stores the end position of a drag in one transaction and
// broadcasts the end of the stream followed by tokenUpdated.
func (d *Drags) commit(ctx context.Context, m Movement) error {
	svc := d.svc.pin()
	return svc.write(ctx, func(tx Tx) ([]Event, error) {
		t, err := tx.Token(m.ID)
		if IsNotFound(err) {
			return nil, errDragVetoed
		}
		if err != nil {
			return nil, err
		}
		// Locked or hidden since the drag's last check (the GM acted while
		// the player was dragging): the end is not broadcast, the drag is
		// vetoed, and blockAll keeps a hidden token to the host.
		if t.Locked || t.Hidden {
			return nil, errDragVetoed
		}
		t.X, t.Y = m.X, m.Y
		events, err := svc.storeToken(tx, t)
		if err != nil {
			return nil, err
		}
		return append([]Event{{Name: EventTokenMoved, Data: &m}}, events...), nil
	})
}

// blockSender answers the sender alone with block at the token's committed
// position.
func (d *Drags) blockSender(ctx context.Context, m Movement) (*Movement, error) {
	tok, err := d.svc.Token(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	return blockAt(m, tok.X, tok.Y), nil
}

// blockAll ends a drag everyone saw: every client snaps the token back to
// its committed position, or to where the drag started when the token is
// gone.
func (d *Drags) blockAll(ctx context.Context, m Movement, own *drag) error {
	x, y := own.startX, own.startY
	var sight *dragSight
	tok, err := d.svc.Token(ctx, m.ID)
	switch {
	case err == nil:
		x, y = tok.X, tok.Y
		if sight, err = d.svc.dragSightOf(ctx, tok); err != nil {
			return err
		}
	case !IsNotFound(err):
		return err
	}
	block := blockAt(m, x, y)
	sight.cast(block) // everyone drew the drag's polygons: the vision goes back too
	var data any = block
	if tok != nil && tok.Hidden {
		data = HostOnly(block) // only the game master drags, and sees, a hidden token
	}
	d.svc.Publish(Event{Name: EventTokenMoved, Data: data})
	return nil
}

// checkMovement reports a tokenMoved message without a token or with an
// unknown state.
func checkMovement(m Movement) error {
	if m.ID == "" {
		return Invalidf("tokenMoved: 'id' (the token's id) is required")
	}
	switch m.State {
	case DragStart, DragControl, DragEnd, DragCancel, DragBlock:
		return nil
	}
	return Invalidf("tokenMoved: 'state' must be start, control, end, block or cancel, not '%s'", m.State)
}

func blockAt(m Movement, x, y float64) *Movement {
	return &Movement{ID: m.ID, X: x, Y: y, State: DragBlock, Source: m.Source}
}

func (d *Drags) recount() { d.count.Store(int32(len(d.active))) }

// Active reports how many drags are in progress. It takes no lock.
func (d *Drags) Active() int { return int(d.count.Load()) }

// Sweep ends with block, for every client, each drag the host no longer
// allows: all of them when remote interaction is off, else those whose
// token was deleted or locked. The hub runs it after changes, so a drag
// does not wait for its next message to snap back.
func (d *Drags) Sweep(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.recount()
	remote := d.svc.live.Settings().RemoteInteraction
	for id, own := range d.active {
		if own.host {
			continue // the game master's drags answer to no setting
		}
		if remote {
			tok, err := d.svc.Token(ctx, id)
			if err != nil && !IsNotFound(err) {
				return err
			}
			if err == nil && !tok.Locked && d.mayMove(own.source, tok) {
				continue
			}
		}
		delete(d.active, id)
		src := EventSource{ID: own.source}
		if err := d.blockAll(ctx, Movement{ID: id, Source: &src}, own); err != nil {
			return err
		}
	}
	return nil
}

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
	src := EventSource{ID: own.source}
	return true, d.blockAll(ctx, Movement{ID: tokenID, Source: &src}, own)
}

// Release cancels every drag of a client that went away: each token goes
// back to where its drag started, on every display.
func (d *Drags) Release(clientID string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.recount()
	for id, owner := range d.owners {
		if owner == clientID {
			delete(d.owners, id)
		}
	}
	for id, own := range d.active {
		if own.source != clientID {
			continue
		}
		delete(d.active, id)
		src := EventSource{ID: clientID}
		var data any = &Movement{ID: id, X: own.startX, Y: own.startY, State: DragCancel, Source: &src}
		if own.hidden {
			data = HostOnly(data)
		}
		d.svc.Publish(Event{Name: EventTokenMoved, Data: data})
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
