package routes

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestPictureHintFollowsTheClientsAddressRule(t *testing.T) {
	for _, c := range []struct {
		name string
		m    *core.Map
		want string
	}{
		{"no map", nil, ""},
		{"a relative path is rooted", &core.Map{Image: "maps/hall.png", Width: 1400, Height: 980}, "/maps/hall.png"},
		{"a path stays", &core.Map{Image: "/campaigns/c/maps/hall.png", Width: 1400, Height: 980}, "/campaigns/c/maps/hall.png"},
		{"no size counts as 1000", &core.Map{Image: "maps/hall.png"}, "/maps/hall.png"},
		{"a video", &core.Map{Image: "maps/hall.png", Video: "maps/hall.webm"}, ""},
		{"no picture", &core.Map{Width: 1400, Height: 980}, ""},
		{"past 4096 a side: maybe tiled", &core.Map{Image: "maps/big.png", Width: 8000, Height: 6000, Scale: 1}, ""},
		{"scaled under 4096", &core.Map{Image: "maps/big.png", Width: 8000, Height: 6000, Scale: 2}, "/maps/big.png"},
		{"another site", &core.Map{Image: "https://example.com/a.png"}, ""},
		{"another site, any case", &core.Map{Image: "HTTP://example.com/a.png"}, ""},
		{"protocol-relative", &core.Map{Image: "//example.com/a.png"}, ""},
		{"inline", &core.Map{Image: "data:image/png;base64,AAAA"}, ""},
		{"a blob", &core.Map{Image: "blob:http://x/1"}, ""},
	} {
		if got := pictureHint(c.m); got != c.want {
			t.Errorf("%s: pictureHint = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestWithPictureHintNamesThePictureBeforeTheScript(t *testing.T) {
	base := newCachedBody([]byte("<!doctype html>\n<head>\n<title>x</title>\n<script>run()</script>\n</head>"), "", "text/html; charset=utf-8")
	var s server
	if s.hintWith(base, "") != base {
		t.Errorf("no picture changed the page")
	}
	got := s.hintWith(base, `/maps/a "b" <c>.png`)
	want := "<title>x</title>\n<meta name=\"companion-picture\" content=\"/maps/a &#34;b&#34; &lt;c&gt;.png\">\n<script>"
	if !strings.Contains(string(got.body), want) {
		t.Errorf("hinted page:\n%s\nwant it to hold %q", got.body, want)
	}
	if got.etag == base.etag {
		t.Errorf("the hinted page kept the plain page's ETag %s: a browser would keep a page naming another picture", got.etag)
	}
	if again := s.hintWith(base, `/maps/a "b" <c>.png`); again != got {
		t.Errorf("the same picture made the page anew")
	}
	if other := s.hintWith(base, "/maps/d.png"); other == got || !bytes.Contains(other.body, []byte(`content="/maps/d.png"`)) {
		t.Errorf("another picture did not make another page: %s", other.body)
	}
	noScript := newCachedBody([]byte("<p>no script</p>"), "", "text/html")
	if s.hintWith(noScript, "/maps/d.png") != noScript {
		t.Errorf("a page without a script was changed")
	}
}

// TestClientPageNamesThePlayerScreensPicture: GET /client/ of the
// built-in client names the picture GET /api gives for the map on the
// player screen, and nothing without a campaign.
func TestClientPageNamesThePlayerScreensPicture(t *testing.T) {
	env := newEnv(t, envOptions{seed: func(tx core.Tx) error {
		m, err := tx.Map(mapID)
		if err != nil {
			return err
		}
		m.Image, m.Width, m.Height = "campaigns/"+campaignID+"/maps/cave.png", 1400, 980
		return tx.PutMap(m)
	}})
	snap := env.do(t, "GET", "/api", "").json(t)
	m, _ := snap["map"].(map[string]any)
	image, _ := m["image"].(string)
	if image == "" {
		t.Fatalf("the fixture's player screen shows no picture: %v", snap["map"])
	}
	want := pictureHint(&core.Map{Image: image, Width: int(m["width"].(float64)), Height: int(m["height"].(float64)), Scale: m["scale"].(float64)})
	page := env.do(t, "GET", "/client/", "")
	if page.status != http.StatusOK || want == "" || !strings.Contains(string(page.body), `<meta name="companion-picture" content="`+want+`">`) {
		t.Errorf("GET /client/: %d, want it to name %q:\n%.600s", page.status, want, page.body)
	}
	etag := page.header.Get("ETag")
	if r := env.do(t, "GET", "/client/", "", "If-None-Match", etag); r.status != http.StatusNotModified {
		t.Errorf("GET /client/ again with its ETag: %d, want 304", r.status)
	}

	bare := newEnv(t, envOptions{noCampaign: true})
	if page := bare.do(t, "GET", "/client/", ""); page.status != http.StatusOK || bytes.Contains(page.body, []byte("companion-picture\" content")) {
		t.Errorf("GET /client/ without a campaign: %d, names a picture: %v", page.status, bytes.Contains(page.body, []byte("companion-picture\" content")))
	}
}
