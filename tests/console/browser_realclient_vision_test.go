package console

import (
	"archive/zip"
	"bytes"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/tests/e2e"
)

// realClientDir is the public Encounter+ web client, built: the folder
// named by COMPANION_REAL_CLIENT, else where the development machines keep
// it. Tests that need it skip without it; nothing of it is in this
// repository.
func realClientDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("COMPANION_REAL_CLIENT")
	if dir == "" {
		dir = "/tmp/epclient/dist/web-client"
	}
	if info, err := os.Stat(filepath.Join(dir, "index.html")); err != nil || !info.Mode().IsRegular() {
		t.Skipf("the built Encounter+ web client is not at %s (set COMPANION_REAL_CLIENT to its dist/web-client folder)", dir)
	}
	return dir
}

// zipFolder zips dir as a user does to install a web client: the folder
// itself at the archive's root.
func zipFolder(t *testing.T, dir string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(dir), path)
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "web-client.zip")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// meanLuminance is the mean luminance of the screenshot's pixels in r.
func meanLuminance(img image.Image, r image.Rectangle) float64 {
	sum, n := 0.0, 0
	for y := r.Min.Y; y < r.Max.Y; y += 4 {
		for x := r.Min.X; x < r.Max.X; x += 4 {
			if c, ok := e2e.Pixel(img, float64(x), float64(y)); ok {
				sum += e2e.Luminance(c)
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// The real Encounter+ web client draws every sight it receives, whatever
// the token's role. Installed as a user installs it, on the demo, the
// players' page must show the chapel where the party stands lit and the
// closed sanctum, where the two foes stand, black: it is lit only if the
// foes' sight reaches the page.
func TestRealClientShowsPlayersOnlyWhatThePartySees(t *testing.T) {
	dir := realClientDir(t)
	s := e2e.StartServer(t, e2e.ServerOptions{})
	if code, out, errOut := e2e.ImportRun(t, "client", "install", "--host-addr", strings.TrimPrefix(s.HostURL, "http://"), zipFolder(t, dir)); code != 0 {
		t.Fatalf("client install: %d %s %s", code, out, errOut)
	}
	p := e2e.NewPage(t, "real client", e2e.ViewportSize{Width: 1400, Height: 1000, Mobile: false})
	p.Navigate(s.URL + "/client/")
	// The demo map fills the left of the page (the initiative list is on the
	// right): the party near its left, the sanctum behind the closed door
	// on its right half.
	party := image.Rect(150, 300, 450, 550)
	sanctum := image.Rect(760, 150, 1150, 650)
	var img image.Image
	deadline := time.Now().Add(30 * time.Second)
	for {
		shot, err := png.Decode(bytes.NewReader(p.Screenshot()))
		if err != nil {
			t.Fatal(err)
		}
		img = shot
		if meanLuminance(img, party) > 60 || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	e2e.SaveScreenshot(t, p, "players-view")
	if lit := meanLuminance(img, party); lit < 60 {
		t.Fatalf("the party's room is dark (mean luminance %.0f): the page did not draw the map\n%s", lit, p.ProblemText())
	}
	if dark := meanLuminance(img, sanctum); dark > 8 {
		t.Fatalf("the closed sanctum is lit for players (mean luminance %.0f, want black): the foes' sight reached the page", dark)
	}
}
