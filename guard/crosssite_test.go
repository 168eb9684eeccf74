package guard

import (
	"testing"

	"github.com/vttapp/companion/hub"
)

// --allow-origin lets a named site's pages write, as it lets them open a
// WebSocket.
func TestAllowedOriginMayWrite(t *testing.T) {
	g := CrossSite{AllowOrigins: []string{"https://vtt.example/"}}
	for origin, want := range map[string]bool{
		"https://vtt.example":   true,
		"https://other.example": false,
		"http://vtt.example":    false,
	} {
		if got := hub.OriginAllowed(origin, "192.168.1.20:8080", g.AllowOrigins); got != want {
			t.Errorf("%s: %v, want %v", origin, got, want)
		}
	}
}
