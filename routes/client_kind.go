package routes

import "net/http"

// The Encounter+ web client reads tokenMoved's state as a number and
// compares it with its own numbers: a page that receives "end" for another
// player's drag keeps that token marked as controlled by someone, tinted
// and refusing every drag of its own, until the token is sent again. The
// server cannot tell that client from its messages before it drags (its
// clientUpdated looks like the built-in client's), but it knows which
// client it served: /client/'s index.html marks the browser with this
// cookie, scoped to /ws, when the page is an installed client's, and
// clears it when it is the built-in one. A WebSocket that carries it
// receives integer drag states from its first message (ws_dragstate.go).
const installedClientCookie = "companion_client"

// markClientPage sets or clears the installed-client cookie on the
// response that serves /client/'s index.html.
func markClientPage(w http.ResponseWriter, installed bool) {
	c := &http.Cookie{Name: installedClientCookie, Path: "/ws", HttpOnly: true, SameSite: http.SameSiteStrictMode}
	if installed {
		c.Value = "installed"
	} else {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// fromInstalledClient reports whether a WebSocket request comes from a
// page of an installed client.
func fromInstalledClient(r *http.Request) bool {
	c, err := r.Cookie(installedClientCookie)
	return err == nil && c.Value == "installed"
}
