package routes

import (
	"bytes"
	"context"
	"html"
	"math"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/systems"
)

// The built-in client's index.html names the picture of the map on the
// player screen (<meta name="companion-picture">), so that its inline
// script starts loading the picture at once, beside GET /api, instead of
// after reading GET /api's answer: on a busy phone that answer waits for
// the bundle's evaluation and WebGL's start (a second and more on a CPU
// renderer), and the first frame waits for the picture. The address is
// the one GET /api gives every reader, so the page tells no one more than
// GET /api does.

// pictureHintName is the meta element's name (web/client/src/index.html reads it).
const pictureHintName = "companion-picture"

// tiledPictureSide is the longest side past which the client may draw a
// picture from tiles rather than whole (web/client/src/map/background.ts):
// no hint then, the client decides.
const tiledPictureSide = 4096

// pictureHint is the address the client loads map's picture from, or ""
// when the page should not start it early: no map, a video, a picture on
// another site or inline, or one the client may tile. The address follows
// the client's backgroundURL: a path as it is, else rooted.
func pictureHint(m *core.Map) string {
	if m == nil || m.Video != "" || m.Image == "" {
		return ""
	}
	scale := m.Scale
	if !(scale > 0) {
		scale = 1
	}
	side := func(v int) float64 {
		if v == 0 {
			return 1000
		}
		return float64(v)
	}
	if math.Max(side(m.Width), side(m.Height))/scale > tiledPictureSide {
		return ""
	}
	src := m.Image
	lower := strings.ToLower(src)
	for _, p := range []string{"http:", "https:", "data:", "blob:", "//"} {
		if strings.HasPrefix(lower, p) {
			return ""
		}
	}
	if !strings.HasPrefix(src, "/") {
		src = "/" + src
	}
	return src
}

// hintedIndex is the built-in index.html with one picture named in it.
type hintedIndex struct {
	base    *cachedBody
	picture string
	body    *cachedBody
}

// playerPicture is the hint for the map on the player screen now ("" for
// none, or when the snapshot cannot be read: GET /api will say why).
func (s *server) playerPicture(ctx context.Context) string {
	if s.cfg.Service == nil {
		return ""
	}
	var sys *systems.System
	if s.cfg.Systems != nil {
		sys = s.cfg.Systems.Current()
	}
	if sys == nil {
		return "" // no game loaded: GET /api has no map to give either
	}
	p, err := s.snapshots.parts(ctx, s.cfg.Service, sys)
	if err != nil {
		return ""
	}
	return p.picture
}

// withPictureHint is index.html (base) naming the player screen's picture
// before its inline script; base itself when there is none to name. The
// last one made is kept: it changes when the game master shows another map.
func (s *server) withPictureHint(ctx context.Context, base *cachedBody) *cachedBody {
	return s.hintWith(base, s.playerPicture(ctx))
}

// hintWith is base naming pic ("" for none) before its first script.
func (s *server) hintWith(base *cachedBody, pic string) *cachedBody {
	if pic == "" {
		return base
	}
	if h := s.hinted.Load(); h != nil && h.base == base && h.picture == pic {
		return h.body
	}
	at := bytes.Index(base.body, []byte("<script"))
	if at < 0 {
		return base
	}
	meta := `<meta name="` + pictureHintName + `" content="` + html.EscapeString(pic) + "\">\n"
	body := make([]byte, 0, len(base.body)+len(meta))
	body = append(append(append(body, base.body[:at]...), meta...), base.body[at:]...)
	c := newCachedBody(body, "", base.contentType)
	s.hinted.Store(&hintedIndex{base: base, picture: pic, body: c})
	return c
}
