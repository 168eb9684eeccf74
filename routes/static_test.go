package routes

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"html"
	"image/png"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/systems"
	"github.com/vttapp/companion/web"
)

// rawGet sends path exactly as written (no client-side cleaning or
// escaping), the way an attacker would.
func rawGet(t *testing.T, e *testEnv, path string) (int, string) {
	t.Helper()
	return rawGetAt(t, e.srv.URL, path)
}

// rawGetAt is rawGet on the server at base (http://host:port).
func rawGetAt(t *testing.T, base, path string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write([]byte("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	n, _ := conn.Read(buf)
	out := string(buf[:n])
	for {
		m, err := conn.Read(buf)
		out += string(buf[:m])
		if err != nil {
			break
		}
	}
	var status int
	var proto string
	if _, err := fmtSscan(out, &proto, &status); err != nil {
		t.Fatalf("no status line in %q", out)
	}
	return status, out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDataFoldersServeFiles(t *testing.T) {
	e := newEnv(t, envOptions{})
	writeFile(t, filepath.Join(e.dataDir, "modules", "m1", "handout.pdf"), "the treasure is under the bridge")
	writeFile(t, filepath.Join(e.dataDir, "campaigns", "c1", "maps", "cave.WEBP"), "RIFF")
	writeFile(t, filepath.Join(e.dataDir, "others", "fog.svg"), `<svg xmlns="http://www.w3.org/2000/svg"></svg>`)
	writeFile(t, filepath.Join(e.dataDir, "systems", "other", "font.css"), `body{}`)
	cases := map[string]string{
		"/modules/m1/handout.pdf":      "application/pdf",
		"/campaigns/c1/maps/cave.WEBP": "image/webp",
		"/others/fog.svg":              "image/svg+xml",
		"/systems/other/font.css":      "text/css; charset=utf-8",
	}
	for path, ctype := range cases {
		r := e.do(t, "GET", path, "")
		if r.status != 200 || r.header.Get("Content-Type") != ctype {
			t.Fatalf("%s: %d %q", path, r.status, r.header.Get("Content-Type"))
		}
		if r.header.Get("ETag") == "" {
			t.Fatalf("%s: no ETag", path)
		}
		if nm := e.do(t, "GET", path, "", "If-None-Match", r.header.Get("ETag")); nm.status != 304 {
			t.Fatalf("%s If-None-Match: %d", path, nm.status)
		}
	}
	rng := e.do(t, "GET", "/modules/m1/handout.pdf", "", "Range", "bytes=4-11")
	if rng.status != http.StatusPartialContent || string(rng.body) != "treasure" || rng.header.Get("Content-Range") != "bytes 4-11/32" {
		t.Fatalf("range: %d %q %q", rng.status, rng.body, rng.header.Get("Content-Range"))
	}
	// Range with gzip accepted is still the exact bytes.
	if rng := e.do(t, "GET", "/modules/m1/handout.pdf", "", "Range", "bytes=0-2", "Accept-Encoding", "gzip"); string(rng.body) != "the" {
		t.Fatalf("range+gzip: %q", rng.body)
	}
	if r := e.do(t, "GET", "/modules/m1/missing.png", ""); r.status != 404 {
		t.Fatalf("missing file: %d", r.status)
	}
}

func TestDataFolderListingDisabled(t *testing.T) {
	e := newEnv(t, envOptions{})
	writeFile(t, filepath.Join(e.dataDir, "modules", "m1", "a.png"), "a")
	for _, path := range []string{"/modules/", "/modules/m1", "/modules/m1/", "/campaigns/", "/others/"} {
		r := e.do(t, "GET", path, "")
		if r.status != 404 || strings.Contains(string(r.body), "a.png") {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
	}
}

func TestDataFoldersDoNotEscape(t *testing.T) {
	e := newEnv(t, envOptions{})
	// Media names throughout, so that the folder's confinement is what
	// refuses each path, not the media rule.
	secret := filepath.Join(e.dataDir, "secret.png")
	writeFile(t, secret, "TOP SECRET")
	writeFile(t, filepath.Join(e.dataDir, "modules", "m1", "ok.png"), "ok")
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "passwd.png"), "TOP SECRET")
	if err := os.Symlink(secret, filepath.Join(e.dataDir, "modules", "m1", "link.png")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(e.dataDir, "others"), 0o755)
	if err := os.Symlink(outside, filepath.Join(e.dataDir, "others", "dir")); err != nil {
		t.Fatal(err)
	}
	attacks := []string{
		"/modules/../secret.png",
		"/modules/m1/../../secret.png",
		"/modules/%2e%2e/secret.png",
		"/modules/%2E%2E/secret.png",
		"/modules/m1/%2e%2e/%2e%2e/secret.png",
		"/modules/..%2fsecret.png",
		"/modules/m1%2f..%2f..%2fsecret.png",
		"/modules/..\\secret.png",
		"/modules/m1\\..\\..\\secret.png",
		"/modules/%5c..%5csecret.png",
		"/modules//etc/passwd",
		"/modules/m1/link.png",
		"/others/dir/passwd.png",
		"/campaigns/%00/secret.png",
		"/systems/../secret.png",
		"/systems/dnd5e/../../secret.png",
		"/systems/dnd5e/%2e%2e/%2e%2e/secret.png",
	}
	for _, path := range attacks {
		status, out := rawGet(t, e, path)
		if strings.Contains(out, "TOP SECRET") {
			t.Fatalf("%s leaked the secret: %s", path, out)
		}
		if status == 200 {
			t.Fatalf("%s answered 200", path)
		}
	}
	// The legitimate neighbour still works over the raw path.
	if status, out := rawGet(t, e, "/modules/m1/ok.png"); status != 200 || !strings.HasSuffix(out, "ok") {
		t.Fatalf("ok.png: %d", status)
	}
}

func TestSystemAssets(t *testing.T) {
	e := newEnv(t, envOptions{})
	sys := testkit.DnD5e(t)
	var asset string
	walkFirstFile(t, sys, &asset)
	if asset == "" {
		t.Fatal("the dnd5e system serves no assets; it ships icons under assets/")
	}
	r := e.do(t, "GET", "/systems/dnd5e/"+asset, "")
	if r.status != 200 || r.header.Get("ETag") == "" || r.header.Get("Content-Type") == "" {
		t.Fatalf("asset %s: %d %v", asset, r.status, r.header)
	}
	if nm := e.do(t, "GET", "/systems/dnd5e/"+asset, "", "If-None-Match", r.header.Get("ETag")); nm.status != 304 {
		t.Fatalf("asset If-None-Match: %d", nm.status)
	}
}

func TestWebPages(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{"/", "/index.html"} {
		r := e.do(t, "GET", path, "")
		body := string(r.body)
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") ||
			!strings.Contains(body, "/client/") || !strings.Contains(body, "data:image/png;base64,") ||
			!strings.Contains(body, strings.TrimPrefix(e.srv.URL, "http://")) {
			t.Fatalf("%s: %d %s", path, r.status, body)
		}
	}
	// The QR code is a real PNG image of the client link.
	page := string(e.do(t, "GET", "/", "").body)
	i := strings.Index(page, "data:image/png;base64,")
	j := strings.Index(page[i:], `"`)
	raw, err := base64.StdEncoding.DecodeString(html.UnescapeString(page[i+len("data:image/png;base64,") : i+j]))
	if err != nil {
		t.Fatalf("QR data URL: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil || img.Bounds().Dx() < 100 {
		t.Fatalf("QR image: %v %v", err, img)
	}
	if !strings.Contains(page, `href="http://`+strings.TrimPrefix(e.srv.URL, "http://")+`/client/"`) {
		t.Fatalf("no link to the client on this server: %s", page)
	}
	icon := e.do(t, "GET", "/icon.png", "")
	if icon.status != 200 || icon.header.Get("Content-Type") != "image/png" || !strings.HasPrefix(string(icon.body), "\x89PNG") {
		t.Fatalf("icon: %d %q", icon.status, icon.header.Get("Content-Type"))
	}
	client := e.do(t, "GET", "/client/", "")
	if client.status != 200 || !strings.Contains(string(client.body), "app.js") {
		t.Fatalf("client: %d", client.status)
	}
	if js := e.do(t, "GET", "/client/app.js", ""); js.status != 200 || !strings.Contains(js.header.Get("Content-Type"), "javascript") {
		t.Fatalf("app.js: %d %q", js.status, js.header.Get("Content-Type"))
	}
	checkBuiltInClientBodies(t, e)
	// Only the built client is served: its sources and packages are not embedded.
	for _, p := range []string{"/client/src/main.ts", "/client/package.json", "/client/node_modules/pixi.js/package.json", "/client/dist/app.js"} {
		if r := e.do(t, "GET", p, ""); r.status != http.StatusNotFound {
			t.Fatalf("%s: %d, want 404", p, r.status)
		}
	}
	if r := e.do(t, "GET", "/client", ""); r.status != http.StatusMovedPermanently || r.header.Get("Location") != "/client/" {
		t.Fatalf("/client: %d %q", r.status, r.header.Get("Location"))
	}
}

var fmtSscan = fmt.Sscan

// walkFirstFile finds a file among the system's assets.
func walkFirstFile(t *testing.T, sys *systems.System, out *string) {
	t.Helper()
	fs.WalkDir(sys.Assets(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && *out == "" {
			*out = p
		}
		return nil
	})
}

// /campaigns/ and /modules/ serve what content points at, never an
// archive's data files: a data folder written by an older version still
// holds maps.json, combatants.json and the like beside the media, with
// hidden tokens, the dm layer, notes and foes' numbers in them.
func TestDataFoldersServeMediaNeverDataFiles(t *testing.T) {
	e := newEnv(t, envOptions{})
	const secret = "CINDER-HOUND-HP-59"
	for _, name := range []string{"campaign.json", "maps.json", "combatants.json", "game.json", "screen.json",
		"messages.json", "monsters.json", "characters.json", "notes.txt", "gm.html", "readme.md", "data.xml", "COMBATANTS.JSON"} {
		writeFile(t, filepath.Join(e.dataDir, "campaigns", "c1", name), secret)
		writeFile(t, filepath.Join(e.dataDir, "modules", "m1", name), secret)
		writeFile(t, filepath.Join(e.dataDir, "others", name), secret)
		writeFile(t, filepath.Join(e.dataDir, "campaigns", "c1", "imports", "i1", name), secret)
	}
	writeFile(t, filepath.Join(e.dataDir, "modules", "m1", "module.json"), secret)
	for _, dir := range []string{"/campaigns/c1/", "/modules/m1/", "/others/", "/campaigns/c1/imports/i1/"} {
		for _, name := range []string{"campaign.json", "module.json", "maps.json", "combatants.json", "game.json", "screen.json",
			"messages.json", "monsters.json", "characters.json", "notes.txt", "gm.html", "readme.md", "data.xml", "COMBATANTS.JSON"} {
			r := e.do(t, "GET", dir+name, "")
			if r.status != 404 || strings.Contains(string(r.body), secret) {
				t.Errorf("%s%s: %d %.60q", dir, name, r.status, r.body)
			}
			if h := e.do(t, "HEAD", dir+name, ""); h.status != 404 {
				t.Errorf("HEAD %s%s: %d", dir, name, h.status)
			}
		}
	}
	// Media the content points at is served: maps, art, handouts, sounds, fonts.
	for _, name := range []string{"maps/chapel.jpg", "monsters/hound.PNG", "handout.pdf", "rain.ogg", "intro.webm", "title.woff2"} {
		writeFile(t, filepath.Join(e.dataDir, "campaigns", "c1", filepath.FromSlash(name)), "media")
		if r := e.do(t, "GET", "/campaigns/c1/"+name, ""); r.status != 200 || string(r.body) != "media" {
			t.Errorf("/campaigns/c1/%s: %d", name, r.status)
		}
	}
}

// checkBuiltInClientBodies: the built-in client's files are served from a
// cache (client_serve.go): the embedded bytes, gzipped for a browser that
// takes it, with an ETag a revalidation answers 304 to.
func checkBuiltInClientBodies(t *testing.T, e *testEnv) {
	t.Helper()
	want, err := fs.ReadFile(web.Client(), "app.js")
	if err != nil {
		t.Fatal(err)
	}
	for round := range 2 { // the first request fills the cache, the second reads it
		plain := e.do(t, "GET", "/client/app.js", "")
		if plain.status != 200 || !bytes.Equal(plain.body, want) || plain.header.Get("Content-Encoding") != "" {
			t.Fatalf("round %d: app.js: %d, %d bytes (want %d), encoding %q", round, plain.status, len(plain.body), len(want), plain.header.Get("Content-Encoding"))
		}
		if plain.header.Get("X-Content-Type-Options") != "nosniff" || plain.header.Get("Content-Security-Policy") == "" {
			t.Fatalf("round %d: app.js lost its headers: %v", round, plain.header)
		}
		zipped := e.do(t, "GET", "/client/app.js", "", "Accept-Encoding", "gzip")
		if zipped.header.Get("Content-Encoding") != "gzip" || len(zipped.body) >= len(want) {
			t.Fatalf("round %d: gzip asked: encoding %q, %d bytes", round, zipped.header.Get("Content-Encoding"), len(zipped.body))
		}
		r, err := gzip.NewReader(bytes.NewReader(zipped.body))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("round %d: the gzipped app.js is not the embedded one (%v)", round, err)
		}
		if again := e.do(t, "GET", "/client/app.js", "", "If-None-Match", plain.header.Get("ETag")); again.status != http.StatusNotModified {
			t.Fatalf("round %d: revalidation: %d, want 304", round, again.status)
		}
	}
}
