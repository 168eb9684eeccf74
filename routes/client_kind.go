package routes

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
)

// The Encounter+ web client reads tokenMoved's state as a number and
// compares it with its own numbers: a page that receives "end" for another
// player's drag keeps that token marked as controlled by someone, tinted
// and refusing every drag of its own, until the token is sent again. The
// server cannot tell that client from its messages before it drags (its
// clientUpdated looks like the built-in client's), but it knows which
// client it served: /client/'s index.html marks the browser with this
// cookie, scoped to /ws, naming the installed client it served (and clears
// it for the built-in one). A WebSocket whose cookie names the client
// installed now receives integer drag states from its first message
// (hub/dragstate.go); a cookie left from a removed or replaced client, or
// from another server on the same host, names nothing and counts for
// nothing.
const installedClientCookie = "companion_client"

// installedClientMark names the installed client: its data folder, name,
// version and install time, hashed (stable across restarts, so a page that
// reconnects after one keeps its integers). "" when none is installed.
func (s *server) installedClientMark() string {
	folder := s.clientFolder()
	if folder == nil {
		return ""
	}
	info := folder.Info()
	if !info.Installed {
		return ""
	}
	sum := sha256.Sum256([]byte(s.cfg.DataDir + "\x00" + info.Name + "\x00" + info.Version + "\x00" + info.InstalledAt))
	return hex.EncodeToString(sum[:12])
}

// markClientPage sets the installed-client cookie on the response that
// serves /client/'s index.html, or clears it for the built-in client.
func (s *server) markClientPage(w http.ResponseWriter, installed bool) {
	c := &http.Cookie{Name: installedClientCookie, Path: "/ws", HttpOnly: true, SameSite: http.SameSiteStrictMode}
	if mark := s.installedClientMark(); installed && mark != "" {
		c.Value = mark
	} else {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// fromInstalledClient reports whether a WebSocket request comes from a
// page of the client installed now.
func (s *server) fromInstalledClient(r *http.Request) bool {
	c, err := r.Cookie(installedClientCookie)
	if err != nil || c.Value == "" {
		return false
	}
	return c.Value == s.installedClientMark()
}
