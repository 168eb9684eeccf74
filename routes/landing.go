package routes

import (
	"bytes"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/routes/joinlink"
)

// landingPage renders GET / from web/index.html: the addresses the server
// answers on, the link to the web client and a QR code of that link (so a
// phone joins by pointing its camera at the screen).
type landingPage struct {
	once sync.Once
	tmpl *template.Template
	err  error
}

type landingData struct {
	SystemName string
	ClientURL  string
	QR         template.URL
	// KeyOn: the join key is on, so ClientURL carries it; Spectators is
	// the spectators' link (for a player's page), Spectator that this
	// page's reader joined as one (ClientURL is then the spectators' link).
	KeyOn      bool
	Spectators string
	Spectator  bool
	// Seats are the player characters: free, or who sits there.
	Seats     []core.SeatView
	Addresses []string
	// NameURL is the client's address by the advertised mDNS name
	// ("http://companion.local:8080/client/"), empty when none is.
	NameURL string
}

func (s *server) serveLanding(w http.ResponseWriter, r *http.Request) {
	p := &s.landing
	p.once.Do(func() { p.tmpl, p.err = template.ParseFS(s.webFS(), "index.html") })
	if p.err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, p.err)
		return
	}
	addrs := serverAddresses(r)
	data := landingData{Addresses: addrs, ClientURL: "http://" + addrs[0] + "/client/"}
	if sys, err := s.system(); err == nil {
		data.SystemName = sys.Name()
	}
	if name := s.cfg.JoinName; name != "" {
		if a, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr); ok {
			data.NameURL = "http://" + net.JoinHostPort(name, strconv.Itoa(a.Port)) + "/client/"
		}
	}
	if s.cfg.Service != nil {
		s.landingSeats(r, &data)
	}
	data.QR = joinlink.QRDataURL(data.ClientURL)
	var buf bytes.Buffer
	if err := p.tmpl.Execute(&buf, data); err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(buf.Bytes())
}

// landingSeats adds what the join key and the seats say to the landing
// page: with the key on, the links carry it (the reader was admitted, so
// may pass it on; a spectator passes on the spectators' link only); and
// which seats are free and who sits where.
func (s *server) landingSeats(r *http.Request, data *landingData) {
	if st, err := s.cfg.Service.JoinStatus(r.Context()); err == nil && st.Enabled {
		data.KeyOn = true
		data.Spectator = httpkit.ActorOf(r).Role == core.ClientSpectator
		withKey := func(link, key string) string { return link + "?" + url.Values{joinKeyQuery: {key}}.Encode() }
		base := data.ClientURL
		if data.Spectator {
			data.ClientURL = withKey(base, st.SpectatorKey)
		} else {
			data.ClientURL = withKey(base, st.Key)
			data.Spectators = withKey(base, st.SpectatorKey)
		}
		if data.NameURL != "" {
			key := st.Key
			if data.Spectator {
				key = st.SpectatorKey
			}
			data.NameURL = withKey(data.NameURL, key)
		}
	}
	if list, err := s.cfg.Service.Seats(r.Context()); err == nil {
		data.Seats = list.Seats
	}
}

// serverAddresses lists host:port pairs players can use: the LAN addresses
// of this machine on the listener's port first (what a phone needs), then
// the host name the request came in on.
func serverAddresses(r *http.Request) []string {
	port := ""
	var local net.IP
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if tcp, ok := a.(*net.TCPAddr); ok {
			port = strconv.Itoa(tcp.Port)
			local = tcp.IP
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(hostport string) {
		if hostport != "" && !seen[hostport] {
			seen[hostport] = true
			out = append(out, hostport)
		}
	}
	if port != "" {
		if local != nil && !local.IsUnspecified() && !local.IsLoopback() {
			add(net.JoinHostPort(local.String(), port))
		} else if local != nil && local.IsUnspecified() {
			for _, ip := range joinlink.LANAddresses() {
				add(net.JoinHostPort(ip, port))
			}
		}
	}
	add(r.Host)
	if len(out) == 0 {
		add("localhost")
	}
	return out
}
