package routes

import (
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
)

// The game master's side of seats, roles and the join key
// (docs/host-console.md, "Seats and the join key").
func mountHostSeats(r chi.Router, cfg Config) {
	h := hostSeats{hostGame{cfg: cfg}}
	r.Get("/host/api/seats", h.list)
	r.Post("/host/api/seats/{id}/free", h.free)
	r.Put("/host/api/seats/{id}/controls", h.controls)
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

// HostSeatRow is a seat as GET /host/api/seats lists it: the seat, the
// tokens it controls, and the channels of the clients sitting there.
type HostSeatRow struct {
	core.HostSeat
	Clients []int `json:"clients"`
}

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
	out := make([]HostSeatRow, 0, len(seats))
	for _, st := range seats {
		row := HostSeatRow{HostSeat: st, Clients: []int{}}
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
	var in struct {
		Channel int    `json:"channel"`
		Player  string `json:"player"`
	}
	if err := decodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	seat, err := h.cfg.Hub.AssignSeat(r.Context(), in.Channel, pathParam(r, "id"), in.Player)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, seat)
}

func (h hostSeats) free(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Service.FreeSeat(r.Context(), pathParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.list(w, r)
}

// controls answers PUT /host/api/seats/{id}/controls {"tokens": [ids]}.
func (h hostSeats) controls(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Tokens []string `json:"tokens"`
	}
	if err := decodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.cfg.Service.SetSeatControls(r.Context(), pathParam(r, "id"), in.Tokens); err != nil {
		h.fail(w, r, err)
		return
	}
	h.list(w, r)
}

func (h hostSeats) channel(r *http.Request) (int, error) {
	n, err := strconv.Atoi(pathParam(r, "channel"))
	if err != nil || n <= 0 {
		return 0, core.Invalidf("a client's channel is a number, not '%s'", core.Clip(pathParam(r, "channel")))
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
	var in struct {
		Role string `json:"role"`
	}
	if err := decodeStrict(r, &in); err != nil {
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
	h.reply(w, r, http.StatusOK, map[string]string{"role": in.Role})
}

// HostJoin is GET /host/api/join: the join key and the links that carry
// it, with their QR codes (PNG data URLs).
type HostJoin struct {
	core.JoinStatus
	// PlayerLink and SpectatorLink open the web client with the key;
	// empty while the key is off (then ClientLink is the link).
	ClientLink      string       `json:"clientLink"`
	PlayerLink      string       `json:"playerLink,omitempty"`
	SpectatorLink   string       `json:"spectatorLink,omitempty"`
	PlayerLinkQR    template.URL `json:"playerLinkQR,omitempty"`
	SpectatorLinkQR template.URL `json:"spectatorLinkQR,omitempty"`
	ClientLinkQR    template.URL `json:"clientLinkQR,omitempty"`
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
func (h hostSeats) joinLinks(st core.JoinStatus) HostJoin {
	out := HostJoin{JoinStatus: st}
	base := "http://" + publicHostPort(h.cfg.PublicAddr) + "/client/"
	out.ClientLink, out.ClientLinkQR = base, qrDataURL(base)
	if st.Enabled {
		out.PlayerLink = base + "?" + url.Values{joinKeyQuery: {st.Key}}.Encode()
		out.SpectatorLink = base + "?" + url.Values{joinKeyQuery: {st.SpectatorKey}}.Encode()
		out.PlayerLinkQR, out.SpectatorLinkQR = qrDataURL(out.PlayerLink), qrDataURL(out.SpectatorLink)
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
		if lan := lanAddresses(); len(lan) > 0 {
			return net.JoinHostPort(lan[0], port)
		}
		return net.JoinHostPort("localhost", port)
	}
	return net.JoinHostPort(host, port)
}

// switchKey answers PATCH /host/api/join {"enabled": bool}.
func (h hostSeats) switchKey(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Enabled *bool `json:"enabled"`
	}
	if err := decodeStrict(r, &in); err != nil {
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
	var in struct {
		Combatants []string `json:"combatants"`
	}
	if err := decodeOptional(r, &in); err != nil {
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
