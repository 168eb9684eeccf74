package hub

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// The host console's live socket, GET /host/ws on the loopback listener.
// It joins the same hub as the players' sockets and receives the same
// events, but as the game master sees them: hidden tokens and combatants
// whole, the dm layer, private rolls (core.Views). It is never counted
// against MaxConnections, never rate limited, never listed among the
// players' clients, and its drags are never refused by remote interaction
// or a lock. Each event is encoded at most twice: once for players, once
// for the host when its payload differs.

// hostClientName signs the game master's drags and messages.
const hostClientName = "Game master"

// ServeHost upgrades a host console request to the host's socket. The
// host guard (loopback Host header) has run; the Origin must be absent or
// the console's own, since a socket is opened with GET, which the guard
// lets through, and this one carries what players must not see.
func (h *Hub) ServeHost(w http.ResponseWriter, r *http.Request) {
	if h.refuseWhenClosed(w) {
		return
	}
	if !hostOrigin(r) {
		refuse(w, http.StatusForbidden, "the host console socket accepts only the console's own page")
		return
	}
	up := websocket.Upgrader{
		HandshakeTimeout: 10 * time.Second,
		CheckOrigin:      hostOrigin,
		WriteBufferPool:  h.upgrader.WriteBufferPool,
	}
	bw := &hijackWriter{ResponseWriter: w}
	ws, err := up.Upgrade(bw, r, nil)
	if err != nil {
		h.refusals.write(slog.LevelInfo, "host console socket refused", "remote", r.RemoteAddr, "err", err)
		return
	}
	h.serve(ws, bw.conn, remoteHost(r.RemoteAddr), true, false, core.Grant{})
}

// hostOrigin accepts no Origin (a tool on the device) or the console's own.
func hostOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	return origin == "" || strings.EqualFold(origin, "http://"+r.Host)
}

// hostFrames are the host's frames of one broadcast: nil where the host
// gets the players' frame.
type hostFrames struct {
	msgs []outMsg
}

func newHostFrames(n int) *hostFrames {
	return &hostFrames{msgs: make([]outMsg, n)}
}

// encode builds the host's frame of event i when it differs from the
// players' (or players get none).
func (f *hostFrames) encode(h *Hub, i int, e core.Event, forPlayersToo bool) {
	if forPlayersToo && !redact.HostPayloadDiffers(e.Data) {
		return
	}
	data := redact.HostPayload(e.Data)
	if data == nil {
		return
	}
	b, err := json.Marshal(outEnvelope{Name: e.Name, Data: data})
	if err != nil {
		h.log.Error("websocket: event not sent to the host, cannot encode it", "event", e.Name, "err", err)
		return
	}
	f.msgs[i] = broadcastMsg(b)
}

// hostFramesOf encodes the host's frames of a broadcast on their own, for
// a host socket that the broadcast did not expect (Hub.broadcast).
func (h *Hub) hostFramesOf(events []core.Event) *hostFrames {
	f := newHostFrames(len(events))
	for i, e := range events {
		_, forPlayersToo := redact.PlayersPayload(e.Data)
		f.encode(h, i, e, forPlayersToo)
	}
	return f
}

// send delivers one broadcast to a host socket: its own frame where there
// is one, the players' otherwise.
func (f *hostFrames) send(c *conn, msgs []outMsg) {
	for i := range msgs {
		m := f.msgs[i]
		if m.data == nil {
			m = msgs[i]
		}
		if m.data == nil {
			continue
		}
		if !c.send(m) {
			return
		}
	}
}

// view is a reply's payload as this connection may see it.
func (c *conn) view(data any) any {
	if c.host {
		return redact.HostPayload(data)
	}
	return redact.ForPlayers(redact.PlayersView(data))
}
