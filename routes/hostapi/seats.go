package hostapi

import (
	"net"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/routes/joinlink"
	"github.com/vttapp/companion/wire"
)

// The game master's side of seats, roles and the join key
// (docs/host-console.md, "Seats and the join key").
func mountHostSeats(r chi.Router, cfg httpkit.Config) {
	h := hostSeats{hostGame{cfg: cfg}}
	r.Get("/host/api/seats", h.list)
	r.Post("/host/api/seats/{id}/free", h.free)
	r.Put("/host/api/seats/{id}/controls", h.controls)
	r.Put("/host/api/seats/{id}/map", h.seatMap)
	r.Get("/host/api/join", h.join)
	r.Patch("/host/api/join", h.switchKey)
	r.Post("/host/api/join/new-key", h.newKey)
	r.Post("/host/api/combatants/initiative/ask", h.askInitiative)
	if cfg.Hub == nil {
		return
	}
	r.Post("/host/api/seats/{id}/assign", h.assign)
	r.Post("/host/api/clients/{channel}/kick", h.kick)
	r.Patch("/host/api/clients/{channel}", h.patchClient)
}

type hostSeats struct{ hostGame }

func (h hostSeats) list(w http.ResponseWriter, r *http.Request) {
	seats, err := h.cfg.Service.HostSeats(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var clients []hubClient
	if h.cfg.Hub != nil {
		for _, c := range h.cfg.Hub.HostClients() {
			clients = append(clients, hubClient{channel: c.Channel, seat: c.Seat})
		}
	}
	out := make([]wire.HostSeatRow, 0, len(seats))
	for _, st := range seats {
		row := wire.HostSeatRow{HostSeat: st, Clients: []int{}}
		for _, c := range clients {
			if c.seat == st.ID {
				row.Clients = append(row.Clients, c.channel)
			}
		}
		out = append(out, row)
	}
	h.reply(w, r, http.StatusOK, out)
}

type hubClient struct {
	channel int
	seat    string
}

// assign answers POST /host/api/seats/{id}/assign {"channel", "player"?}:
// the seat goes to that client (its token to it alone).
func (h hostSeats) assign(w http.ResponseWriter, r *http.Request) {
	var in wire.SeatAssignment
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	seat, err := h.cfg.Hub.AssignSeat(r.Context(), in.Channel, httpkit.PathParam(r, "id"), in.Player)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, seat)
}

func (h hostSeats) free(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Service.FreeSeat(r.Context(), httpkit.PathParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.list(w, r)
}

// controls answers PUT /host/api/seats/{id}/controls {"tokens": [ids]}.
func (h hostSeats) controls(w http.ResponseWriter, r *http.Request) {
	var in wire.SeatControls
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.cfg.Service.SetSeatControls(r.Context(), httpkit.PathParam(r, "id"), in.Tokens); err != nil {
		h.fail(w, r, err)
		return
	}
	h.list(w, r)
}

// seatMap answers PUT /host/api/seats/{id}/map {"mapId": id or null}: the
// seat goes on that map (a split party), or back to the player screen's.
func (h hostSeats) seatMap(w http.ResponseWriter, r *http.Request) {
	var in core.SeatMapChange
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	mapID := ""
	if in.MapID != nil {
		mapID = *in.MapID
	}
	if err := h.cfg.Service.SetSeatMap(r.Context(), httpkit.PathParam(r, "id"), mapID); err != nil {
		h.fail(w, r, err)
		return
	}
	h.list(w, r)
}

func (h hostSeats) channel(r *http.Request) (int, error) {
	n, err := strconv.Atoi(httpkit.PathParam(r, "channel"))
	if err != nil || n <= 0 {
		return 0, core.Invalidf("a client's channel is a number, not '%s'", core.Clip(httpkit.PathParam(r, "channel")))
	}
	return n, nil
}

// kick answers POST /host/api/clients/{channel}/kick.
func (h hostSeats) kick(w http.ResponseWriter, r *http.Request) {
	n, err := h.channel(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out, err := h.cfg.Hub.Kick(r.Context(), n)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, out)
}

// patchClient answers PATCH /host/api/clients/{channel} {"role":
// "spectator"|"player"}.
func (h hostSeats) patchClient(w http.ResponseWriter, r *http.Request) {
	n, err := h.channel(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var in wire.ClientRole
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	switch in.Role {
	case core.ClientSpectator, core.ClientPlayer:
	default:
		h.fail(w, r, core.Invalidf(`'role' must be "spectator" or "player", not '%s'`, core.Clip(in.Role)))
		return
	}
	if err := h.cfg.Hub.SetSpectator(r.Context(), n, in.Role == core.ClientSpectator); err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, in)
}

func (h hostSeats) join(w http.ResponseWriter, r *http.Request) {
	st, err := h.cfg.Service.JoinStatus(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, h.joinLinks(st))
}

// joinLinks builds the links of the join key on the public listener's
// first address players can reach.
func (h hostSeats) joinLinks(st core.JoinStatus) wire.HostJoin {
	out := wire.HostJoin{JoinStatus: st}
	base := "http://" + publicHostPort(h.cfg.PublicAddr) + "/client/"
	out.ClientLink, out.ClientLinkQR = base, joinlink.QRDataURL(base)
	if st.Enabled {
		out.PlayerLink = base + "?" + url.Values{wire.JoinKeyQuery: {st.Key}}.Encode()
		out.SpectatorLink = base + "?" + url.Values{wire.JoinKeyQuery: {st.SpectatorKey}}.Encode()
		out.PlayerLinkQR, out.SpectatorLinkQR = joinlink.QRDataURL(out.PlayerLink), joinlink.QRDataURL(out.SpectatorLink)
	}
	return out
}

// publicHostPort is the address players use for the public listener
// bound at addr: its own IP, or this machine's first LAN address when it
// listens on every interface.
func publicHostPort(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "localhost:8080"
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		if lan := joinlink.LANAddresses(); len(lan) > 0 {
			return net.JoinHostPort(lan[0], port)
		}
		return net.JoinHostPort("localhost", port)
	}
	return net.JoinHostPort(host, port)
}

// switchKey answers PATCH /host/api/join {"enabled": bool}.
func (h hostSeats) switchKey(w http.ResponseWriter, r *http.Request) {
	var in wire.JoinKeySwitch
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	if in.Enabled == nil {
		h.fail(w, r, core.Invalidf(`expected {"enabled": true|false}`))
		return
	}
	st, err := h.cfg.Service.SetJoinKey(r.Context(), *in.Enabled)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, h.joinLinks(st))
}

// newKey answers POST /host/api/join/new-key: new keys, every pass
// revoked, everyone who joined with the old keys dropped.
func (h hostSeats) newKey(w http.ResponseWriter, r *http.Request) {
	st, err := h.cfg.Service.NewJoinKeys(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, h.joinLinks(st))
}

// askInitiative answers POST /host/api/combatants/initiative/ask
// {"combatants"?: [ids]}: the seated players among them who have not
// rolled are asked to (initiativeRequested).
func (h hostSeats) askInitiative(w http.ResponseWriter, r *http.Request) {
	var in wire.CombatantChoice
	if err := httpkit.DecodeOptional(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	out, err := h.cfg.Service.AskInitiative(r.Context(), in.Combatants)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, out)
}
