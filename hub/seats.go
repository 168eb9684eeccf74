package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
)

// Who each player connection is (the rules are the core's: seats.go,
// seatrights.go, access.go): the grant its join key or pass gave it at the
// upgrade, the role it asked for or the game master set, and the hash of
// the seat token it presented. The seat token itself is never kept, logged
// or sent to anyone but the connection that took the seat.

// Close codes the hub ends a player's connection with.
const (
	// CloseJoinKeyChanged: the join key was turned on or changed and this
	// connection's credential no longer admits it.
	CloseJoinKeyChanged = 4401
	// CloseKicked: the game master sent this client away.
	CloseKicked = 4403
)

type admissionKey struct{}
type seatTokenKey struct{}

// WithAdmission marks an upgrade with the grant the join key gave its
// request (routes/joinkey.go). An upgrade without one is admitted as with
// the key off.
func WithAdmission(r *http.Request, g core.Grant) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), admissionKey{}, g))
}

// WithSeatToken marks an upgrade with the seat token its browser keeps in
// a cookie (a seat link): the connection holds that seat from its first
// message, as a client that sends takeSeat {seatToken} does.
func WithSeatToken(r *http.Request, token string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), seatTokenKey{}, token))
}

func admissionOf(ctx context.Context) core.Grant {
	if g, ok := ctx.Value(admissionKey{}).(core.Grant); ok {
		return g
	}
	return core.Grant{Role: core.ClientPlayer, Open: true}
}

// actor is who the connection is, for the core's rules.
func (c *conn) actor() core.Actor {
	c.mu.Lock()
	defer c.mu.Unlock()
	role := core.ClientPlayer
	switch {
	case c.grant.Role == core.ClientSpectator || c.spectator || c.hub.svc.SpectatorAddress(c.client.Address):
		role = core.ClientSpectator
	case c.client.IsPlayerDisplay():
		role = core.ClientDisplay
	}
	return core.Actor{Role: role, Seat: c.seat, Name: c.client.Name, Color: c.client.Color,
		Device: core.DeviceOf(c.grant.Pass, c.seat, c.client.Address, strconv.Itoa(c.client.Channel))}
}

// tellDrags gives the drag tracker who the connection now is.
func (c *conn) tellDrags() {
	if !c.host {
		c.hub.svc.Drags().SetActor(c.id, c.actor())
	}
}

// setSeat records the seat token hash the connection holds.
func (c *conn) setSeat(hash string) {
	c.mu.Lock()
	before := c.seat
	c.seat = hash
	c.mu.Unlock()
	c.tellDrags()
	c.followSeatMap(before, hash)
}

// followSeatMap sends the connection the map it looks at when its seat
// changed from before to after and one of them is on a map of its own (a
// split party): its page would keep the other map.
func (c *conn) followSeatMap(before, after string) {
	if c.host || before == after {
		return
	}
	onMap, changed := c.hub.svc.SeatMapChange(before, after)
	if !changed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.hub.opts.HandlerTimeout)
	defer cancel()
	m, err := c.hub.svc.PlayerMapOn(ctx, onMap)
	if err != nil {
		c.hub.log.Error("websocket: cannot read the map of a seat", "map", onMap, "err", err)
		return
	}
	if m == nil {
		c.send1(core.EventMapLoaded, nil)
		return
	}
	c.send1(core.EventMapLoaded, redact.ForPlayers(m))
}

// send1 sends an event to this connection alone (no responseId).
func (c *conn) send1(name string, data any) {
	b, err := json.Marshal(outEnvelope{Name: name, Data: data})
	if err != nil {
		c.hub.log.Error("websocket: event not sent, cannot encode it", "event", name, "err", err)
		return
	}
	c.enqueue(b)
}

// seatRequest is takeSeat's payload: a seat to take (seatId, with the
// player's name), or the seat token of one held before (seatToken).
type seatRequest struct {
	SeatID    string `json:"seatId"`
	Player    string `json:"player"`
	SeatToken string `json:"seatToken"`
}

func onTakeSeat(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var in seatRequest
	if err := decodeData(core.RequestTakeSeat, data, &in); err != nil {
		return nil, err
	}
	switch {
	case in.SeatToken != "" && in.SeatID == "":
		taken, err := c.hub.svc.ResumeSeat(ctx, c.actor(), in.SeatToken)
		if err != nil {
			return nil, err
		}
		c.setSeat(core.SeatHash(in.SeatToken))
		return taken, nil
	case in.SeatID != "" && in.SeatToken == "":
		taken, err := c.hub.svc.TakeSeat(ctx, c.actor(), in.SeatID, in.Player)
		if err != nil {
			return nil, err
		}
		c.setSeat(core.SeatHash(taken.SeatToken))
		return taken, nil
	}
	return nil, core.Invalidf(`takeSeat: give {"seatId", "player"} to take a free seat, or {"seatToken"} to come back to yours`)
}

func onLeaveSeat(ctx context.Context, c *conn, _ json.RawMessage) (any, error) {
	if err := c.hub.svc.LeaveSeat(ctx, c.actor()); err != nil {
		return nil, err
	}
	c.setSeat("")
	return nil, nil
}

// onSetRole: a client becomes a spectator, or a player again, unless its
// pass or key is a spectator's or the game master made it one.
func onSetRole(_ context.Context, c *conn, data json.RawMessage) (any, error) {
	var in struct {
		Role string `json:"role"`
	}
	if err := decodeData(core.RequestSetRole, data, &in); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer func() { c.tellDrags() }()
	defer c.mu.Unlock()
	switch in.Role {
	case core.ClientSpectator:
		c.spectator = true
	case core.ClientPlayer:
		if c.grant.Role == core.ClientSpectator || c.gmSpectator || c.hub.svc.SpectatorAddress(c.client.Address) {
			return nil, core.Forbiddenf("you joined as a spectator, or the game master made you one: ask the game master")
		}
		c.spectator = false
	default:
		return nil, core.Invalidf(`setRole: 'role' must be "player" or "spectator", not '%s'`, core.Clip(in.Role))
	}
	return map[string]string{"role": in.Role}, nil
}

func onGetCharacter(ctx context.Context, c *conn, _ json.RawMessage) (any, error) {
	return c.hub.svc.CharacterSheet(ctx, c.actor())
}

func onUpdateCharacter(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var patch core.Object
	if err := decodeData(core.RequestUpdateCharacter, data, &patch); err != nil {
		return nil, err
	}
	return c.hub.svc.PatchOwnCharacter(ctx, c.actor(), patch)
}

func onChangeHitPoints(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var ch core.HitPointChange
	if err := decodeData(core.RequestChangeHitPoints, data, &ch); err != nil {
		return nil, err
	}
	return c.hub.svc.ChangeOwnHitPoints(ctx, c.actor(), ch)
}

func onRollAction(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var req core.ActionRequest
	if err := decodeData(core.RequestRollAction, data, &req); err != nil {
		return nil, err
	}
	return c.hub.svc.RollAction(ctx, c.actor(), req)
}

func onRollInitiative(ctx context.Context, c *conn, _ json.RawMessage) (any, error) {
	return c.hub.svc.RollOwnInitiative(ctx, c.actor())
}

func onEndTurn(ctx context.Context, c *conn, data json.RawMessage) (any, error) {
	var pass turns.TurnPass // optional: whom the turn goes to, when turns are passed
	if len(data) > 0 && !bytes.Equal(data, []byte("null")) {
		if err := decodeData(core.RequestEndTurn, data, &pass); err != nil {
			return nil, err
		}
	}
	game, err := c.hub.svc.EndTurn(ctx, c.actor(), pass.To)
	if err != nil {
		return nil, err
	}
	return redact.GameForPlayers(game), nil
}

// onHostSeat answers the seat events on the host console's socket: the
// game master holds no seat (the host API gives seats to players).
func onHostSeat(context.Context, *conn, json.RawMessage) (any, error) {
	return nil, core.Forbiddenf("the game master holds no seat: give seats to players with /host/api/seats")
}

// afterBroadcastLocked is what the hub does for each connection after
// certain events, inside the broadcast (so it never blocks; the caller
// holds h.mu): drop the connections the join key no longer admits
// (accessChanged), and tell those that lost their seat (seatsUpdated).
func (h *Hub) afterBroadcastLocked(events []core.Event) {
	var access, seats bool
	for _, e := range events {
		switch e.Name {
		case core.EventAccessChanged:
			access = true
		case core.EventSeatsUpdated:
			seats = true
		}
	}
	if !access && !seats {
		return
	}
	for c := range h.conns {
		if c.host {
			continue
		}
		c.mu.Lock()
		grant, seat := c.grant, c.seat
		c.mu.Unlock()
		if access && !h.svc.StillAdmitted(grant) {
			c.close(CloseJoinKeyChanged, "the join key changed: ask the game master for the new link")
			continue
		}
		if seats && seat != "" && !h.svc.SeatHeld(seat) {
			// Only the connection's own record: the drag tracker reads the
			// seat index itself, and must not be locked from here (the
			// broadcast runs inside the commit lock, a drag takes its own
			// lock before it).
			c.mu.Lock()
			c.seat = ""
			c.mu.Unlock()
			c.send1(core.EventSeatChanged, map[string]any{"seat": nil})
			c.followSeatMap(seat, "")
		}
	}
}

// connByChannel finds a player's connection by its channel.
func (h *Hub) connByChannel(channel int) *conn {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for c := range h.conns {
		if !c.host && c.snapshot().Channel == channel {
			return c
		}
	}
	return nil
}

// Kicked is what Kick did.
type Kicked struct {
	// Closed is how many connections were closed (the client's, and every
	// other of the same device: holding one of its seats or passes, or
	// coming from its address).
	Closed int `json:"closed"`
	// NewKeys: the join key is on, so new keys were drawn (new links);
	// the others keep their passes.
	NewKeys bool `json:"newKeys"`
}

// Kick sends a device away (engine.Service.Kick): every seat it holds is
// freed, and with the join key on every pass it holds is revoked and new
// keys drawn; its connections (every one holding one of those seats or
// passes, or coming from its address; loopback, this machine, is never a
// device's address) are closed with CloseKicked. A channel that closed in
// the last minute is still the device it was (recentlyGone): the kick
// reaches the connection it reconnected with.
func (h *Hub) Kick(ctx context.Context, channel int) (*Kicked, error) {
	var who core.KickTarget
	target := h.connByChannel(channel)
	if target != nil {
		target.mu.Lock()
		who = core.KickTarget{Seat: target.seat, Pass: target.grant.Pass, Address: target.client.Address}
		target.mu.Unlock()
	} else {
		var ok bool
		if who, ok = h.gone.lookup(channel, time.Now()); !ok {
			return nil, core.NotFoundf("no client on channel %d", channel)
		}
	}
	plan, err := h.svc.KickPlan(ctx, who)
	if err != nil {
		return nil, err
	}
	passes, seats := setOf(plan.Passes), setOf(append(plan.Seats, who.Seat))
	address := core.AddressKey(who.Address)
	// Its connections close first, with the kick's code: the change of
	// keys below would otherwise close them as "key changed".
	out := &Kicked{}
	gone := h.playersWhere(func(c *conn) bool {
		return c == target || passes[c.grant.Pass] || seats[c.seat] || address != "" && core.AddressKey(c.client.Address) == address
	})
	for _, c := range gone {
		c.close(CloseKicked, "removed by the game master")
		out.Closed++
	}
	kicked, err := h.svc.Kick(ctx, who)
	if err != nil {
		return nil, err
	}
	out.NewKeys = kicked.NewKeys
	h.log.Info("websocket client kicked", "channel", channel, "address", who.Address, "closed", out.Closed,
		"passes", len(kicked.Passes), "seats", len(kicked.Seats), "newKeys", kicked.NewKeys)
	return out, nil
}

// playersWhere lists the player connections match selects; match runs
// with the connection's lock held (it may change what that lock guards).
func (h *Hub) playersWhere(match func(c *conn) bool) []*conn {
	h.mu.RLock()
	defer h.mu.RUnlock()
	var out []*conn
	for c := range h.conns {
		if c.host {
			continue
		}
		c.mu.Lock()
		ok := match(c)
		c.mu.Unlock()
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// setOf is a set of the non-empty strings of list.
func setOf(list []string) map[string]bool {
	out := make(map[string]bool, len(list))
	for _, s := range list {
		if s != "" {
			out[s] = true
		}
	}
	return out
}

// AssignSeat is the game master giving a seat to a connected client: the
// seat token goes to that connection alone (seatChanged), which holds the
// seat at once. player defaults to the client's name.
func (h *Hub) AssignSeat(ctx context.Context, channel int, seatID, player string) (*core.SeatView, error) {
	c := h.connByChannel(channel)
	if c == nil {
		return nil, core.NotFoundf("no client on channel %d", channel)
	}
	who := c.actor()
	if who.Role != core.ClientPlayer {
		return nil, core.Forbiddenf("a %s cannot hold a seat", who.Role)
	}
	if strings.TrimSpace(player) == "" {
		player = who.Name
	}
	taken, err := h.svc.AssignSeat(ctx, seatID, player, who)
	if err != nil {
		return nil, err
	}
	c.setSeat(core.SeatHash(taken.SeatToken))
	c.send1(core.EventSeatChanged, taken)
	return &taken.Seat, nil
}

// SetSpectator makes a connected client a spectator (or a player again),
// and the client cannot undo it. The role belongs to the device: to its
// pass when it holds one (kept across restarts: every connection and HTTP
// request that pass opens is a spectator's, reconnections included), else
// to its address (loopback, this machine, excepted), else to the
// connection alone. Every connection of that pass or address is told.
func (h *Hub) SetSpectator(ctx context.Context, channel int, on bool) error {
	c := h.connByChannel(channel)
	if c == nil {
		return core.NotFoundf("no client on channel %d", channel)
	}
	role := core.ClientPlayer
	if on {
		role = core.ClientSpectator
	}
	c.mu.Lock()
	pass, address := c.grant.Pass, c.client.Address
	c.mu.Unlock()
	byAddress := false
	if pass != "" {
		if err := h.svc.SetPassRole(ctx, pass, role); err != nil {
			return err
		}
	} else {
		byAddress = h.svc.SetAddressSpectator(address, on)
	}
	key := core.AddressKey(address)
	told := h.playersWhere(func(o *conn) bool {
		same := o == c || pass != "" && o.grant.Pass == pass || byAddress && o.grant.Pass == "" && core.AddressKey(o.client.Address) == key
		if same {
			o.gmSpectator, o.spectator = on, on
			if pass != "" && o.grant.Pass == pass {
				o.grant.Role = role
			}
		}
		return same
	})
	for _, o := range told {
		o.tellDrags()
		o.send1(core.EventRoleChanged, map[string]string{"role": role})
	}
	return nil
}

// HostClient is a connected client as the host console lists it: the
// contract's Client with its role and the seat it holds.
type HostClient struct {
	core.Client
	Role string `json:"role"`
	// Seat is the id of the character whose seat it holds, "" when none.
	Seat string `json:"seat"`
}

// HostClients lists the connected players with their roles and seats.
func (h *Hub) HostClients() []HostClient {
	clients := h.Clients()
	byChannel := map[int]*conn{}
	h.mu.RLock()
	for c := range h.conns {
		if !c.host {
			byChannel[c.snapshot().Channel] = c
		}
	}
	h.mu.RUnlock()
	out := make([]HostClient, 0, len(clients))
	for _, cl := range clients {
		hc := HostClient{Client: cl, Role: core.ClientPlayer}
		if c := byChannel[cl.Channel]; c != nil {
			who := c.actor()
			hc.Role, hc.Seat = who.Role, h.svc.SeatHeldID(who.Seat)
		}
		out = append(out, hc)
	}
	return out
}

// seatHash is the hash of the seat token the connection holds, "" for none.
func (c *conn) seatHash() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seat
}

// holdsOneOf reports whether the connection holds one of seats (hashes of
// seat tokens): whether it receives a whisper.
func (c *conn) holdsOneOf(seats []string) bool {
	c.mu.Lock()
	seat := c.seat
	c.mu.Unlock()
	return seat != "" && slices.Contains(seats, seat)
}
