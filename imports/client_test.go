package imports

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vttapp/companion/core"
)

// clientArchive is a fake web client build wrapped in one top folder, as
// a zip of a build folder is.
func clientArchive(t testing.TB, version string) []byte {
	return makeZip(t,
		zipEntry{name: "web-client/index.html", body: "<!doctype html><title>client " + version + "</title><script src=\"app.js\"></script>"},
		zipEntry{name: "web-client/app.js", body: "console.log('" + version + "')"},
		zipEntry{name: "web-client/assets/img/token.png", body: "png " + version},
		zipEntry{name: "web-client/meta.json", body: `{"name":"Web Client","version":"` + version + `","description":"Test\nclient"}`},
	)
}

func readClientFile(t *testing.T, m *Manager, name string) string {
	t.Helper()
	f, installed, err := m.ClientFolder().Open(name)
	if !installed || err != nil {
		t.Fatalf("open %s: installed %v, %v", name, installed, err)
	}
	defer f.Close()
	data, _ := io.ReadAll(f)
	return string(data)
}

func TestInstallClientStripsTopFolderAndReadsMeta(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	if info := m.ClientFolder().Info(); info.Installed {
		t.Fatalf("a fresh data folder has an installed client: %+v", info)
	}
	if _, installed, _ := m.ClientFolder().Open("index.html"); installed {
		t.Fatal("Open reports a client installed in a fresh data folder")
	}
	info, err := m.InstallClientFile(context.Background(), bytes.NewReader(clientArchive(t, "0.9.17")))
	if err != nil {
		t.Fatal(err)
	}
	if !info.Installed || info.Name != "Web Client" || info.Version != "0.9.17" || info.Description != "Test client" || info.InstalledAt == "" {
		t.Fatalf("info = %+v", info)
	}
	if got := m.ClientFolder().Info(); got != info {
		t.Fatalf("Info() = %+v, install answered %+v", got, info)
	}
	want := []string{"app.js", "assets/img/token.png", "index.html", "meta.json"}
	if got := listFiles(t, filepath.Join(env.dataDir, "client")); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("installed files %v, want %v (top folder stripped)", got, want)
	}
	if got := readClientFile(t, m, "app.js"); got != "console.log('0.9.17')" {
		t.Fatalf("app.js = %q", got)
	}
	assertNoStaging(t, env.dataDir)
}

func TestInstallClientAtRootAndNameFromManifest(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	// The Encounter+ release: index.html at the root, manifest.json first.
	archive := makeZip(t,
		zipEntry{name: "index.html", body: "root"},
		zipEntry{name: "manifest.json", body: `{"id":"web-client","name":"Web Client","version":"1.0.0"}`},
		zipEntry{name: "meta.json", body: `{"name":"Old","version":"0.1.0"}`},
	)
	info, err := m.InstallClientFile(context.Background(), bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "Web Client" || info.Version != "1.0.0" {
		t.Fatalf("info = %+v, want manifest.json's name and version", info)
	}
	// package.json when nothing else names it; a non-string name is ignored.
	archive = makeZip(t,
		zipEntry{name: "index.html", body: "root"},
		zipEntry{name: "meta.json", body: `{"name":42}`},
		zipEntry{name: "package.json", body: `{"name":"my-client","version":"2.1.0"}`},
	)
	if info, err = m.InstallClientFile(context.Background(), bytes.NewReader(archive)); err != nil {
		t.Fatal(err)
	}
	if info.Name != "my-client" || info.Version != "2.1.0" {
		t.Fatalf("info = %+v, want package.json's", info)
	}
	// Nothing describes it: installed, nameless.
	if info, err = m.InstallClientFile(context.Background(), bytes.NewReader(makeZip(t, zipEntry{name: "index.html", body: "x"}))); err != nil {
		t.Fatal(err)
	}
	if !info.Installed || info.Name != "" || info.Version != "" {
		t.Fatalf("info = %+v", info)
	}
}

func TestBrokenClientArchiveLeavesInstalledClient(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	if _, err := m.InstallClientFile(context.Background(), bytes.NewReader(clientArchive(t, "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	before := listFiles(t, filepath.Join(env.dataDir, "client"))
	bomb := makeZip(t, zipEntry{name: "index.html", body: "x"}, zipEntry{name: "big.js", body: strings.Repeat("\x00", 4<<20)})
	cases := []struct {
		name    string
		archive []byte
		kind    core.ErrorKind
		says    string
	}{
		{"not a zip", []byte("<!doctype html>"), core.KindInvalid, "zip archive"},
		{"empty", nil, core.KindInvalid, "zip archive"},
		{"truncated", clientArchive(t, "2.0.0")[:200], core.KindInvalid, "not a valid zip"},
		{"traversal", makeZip(t, zipEntry{name: "index.html", body: "x"}, zipEntry{name: "../../evil.js", body: "x"}), core.KindInvalid, "outside"},
		{"absolute", makeZip(t, zipEntry{name: "index.html", body: "x"}, zipEntry{name: "/etc/evil.js", body: "x"}), core.KindInvalid, "absolute"},
		{"symlink", makeZip(t, zipEntry{name: "index.html", body: "x"}, zipEntry{name: "link", body: "/etc/passwd", mode: os.ModeSymlink | 0o777}), core.KindInvalid, "symbolic link"},
		{"zip bomb", bomb, core.KindTooLarge, "zip bomb"},
		{"no index.html", makeZip(t, zipEntry{name: "app.js", body: "x"}, zipEntry{name: "meta.json", body: "{}"}), core.KindInvalid, "no index.html"},
		{"index.html two folders down", makeZip(t, zipEntry{name: "a/b/index.html", body: "x"}), core.KindInvalid, "no index.html"},
		{"index.html is a folder", makeZip(t, zipEntry{name: "index.html/x", body: "x"}), core.KindInvalid, "no index.html"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := m.InstallClientFile(context.Background(), bytes.NewReader(c.archive))
			wantKind(t, err, c.kind, c.says)
			if got := listFiles(t, filepath.Join(env.dataDir, "client")); strings.Join(got, ",") != strings.Join(before, ",") {
				t.Fatalf("installed files changed to %v", got)
			}
			if got := readClientFile(t, m, "app.js"); got != "console.log('1.0.0')" {
				t.Fatalf("app.js = %q after a broken install", got)
			}
			if info := m.ClientFolder().Info(); info.Version != "1.0.0" {
				t.Fatalf("info = %+v", info)
			}
			assertNoStaging(t, env.dataDir)
			if _, err := os.Stat(filepath.Join(filepath.Dir(env.dataDir), "evil.js")); err == nil {
				t.Fatal("a traversal entry was written outside the data folder")
			}
		})
	}
}

func TestClientUploadSizeLimit(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{MaxDownloadBytes: 100})
	_, err := m.InstallClientFile(context.Background(), bytes.NewReader(clientArchive(t, "1.0.0")))
	wantKind(t, err, core.KindTooLarge, "larger than 100 bytes")
	if m.ClientFolder().Info().Installed {
		t.Fatal("an oversized upload was installed")
	}
}

// A file where the client folder belongs is no installed client.
func TestClientFolderThatIsAFile(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	if err := os.WriteFile(filepath.Join(env.dataDir, "client"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, installed, _ := m.ClientFolder().Open("index.html"); installed {
		t.Fatal("Open reports a client installed in a plain file")
	}
	if info := m.ClientFolder().Info(); info.Installed {
		t.Fatalf("info = %+v", info)
	}
	// Installing replaces it.
	if _, err := m.InstallClientFile(context.Background(), bytes.NewReader(clientArchive(t, "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	if got := readClientFile(t, m, "app.js"); got != "console.log('1.0.0')" {
		t.Fatalf("app.js = %q", got)
	}
}

func TestRemoveClient(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	wantKind(t, m.RemoveClient(), core.KindNotFound, "no web client is installed")
	if _, err := m.InstallClientFile(context.Background(), bytes.NewReader(clientArchive(t, "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	if err := m.RemoveClient(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(env.dataDir, "client")); !os.IsNotExist(err) {
		t.Fatalf("client folder still there: %v", err)
	}
	if info := m.ClientFolder().Info(); info.Installed {
		t.Fatalf("info = %+v after removal", info)
	}
	if _, installed, _ := m.ClientFolder().Open("index.html"); installed {
		t.Fatal("Open still reports an installed client")
	}
	assertNoStaging(t, env.dataDir)
}

// Concurrent installs each land whole: the files served all come from one
// archive, and nothing is left behind.
func TestConcurrentClientInstallsDoNotInterleave(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		archive := clientArchive(t, fmt.Sprintf("1.0.%d", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := m.InstallClientFile(context.Background(), bytes.NewReader(archive))
			errs <- err
		}()
	}
	// Readers meanwhile always find a whole client.
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			f, installed, err := m.ClientFolder().Open("index.html")
			if installed && err != nil {
				t.Errorf("index.html missing during a swap: %v", err)
				return
			}
			if f != nil {
				f.Close()
			}
		}
	}()
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	info := m.ClientFolder().Info()
	if got, want := readClientFile(t, m, "app.js"), "console.log('"+info.Version+"')"; got != want {
		t.Fatalf("app.js = %q but meta.json says %s: two installs interleaved", got, info.Version)
	}
	if got := readClientFile(t, m, "assets/img/token.png"); got != "png "+info.Version {
		t.Fatalf("token.png = %q, version %s", got, info.Version)
	}
	assertNoStaging(t, env.dataDir)
	entries, _ := os.ReadDir(env.dataDir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "client") && e.Name() != "client" {
			t.Fatalf("left behind: %s", e.Name())
		}
	}
}

// The client folder is served through os.Root: no name leads out of it.
func TestClientFolderOpenIsConfined(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	if _, err := m.InstallClientFile(context.Background(), bytes.NewReader(clientArchive(t, "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(env.dataDir, "client")
	if err := os.Symlink(filepath.Join(env.dataDir, "companion.db"), filepath.Join(dir, "db")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(env.dataDir, filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../companion.db", "db", "up/companion.db", "/etc/passwd", "assets/../../companion.db"} {
		f, installed, err := m.ClientFolder().Open(name)
		if err == nil {
			f.Close()
			t.Errorf("Open(%q) reached outside the client folder", name)
		}
		if !installed {
			t.Errorf("Open(%q) says no client is installed", name)
		}
	}
}

func TestClientOfferInstallsOnlyAfterAccept(t *testing.T) {
	env := newTestEnv(t)
	srv := newContentServer(t, true)
	srv.put("/web-client.zip", clientArchive(t, "3.0.0"))
	m := newTestManager(t, env, srv.Client(), Limits{})
	o, err := m.OfferClient(srv.URL+"/web-client.zip", "host")
	if err != nil {
		t.Fatal(err)
	}
	if o.Type != KindClient || o.Status != StatusPending || o.URL != srv.URL+"/web-client.zip" {
		t.Fatalf("offer = %+v", o)
	}
	if n := srv.hitCount("/web-client.zip"); n != 0 {
		t.Fatalf("downloaded %d times before accept", n)
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	o = settle(t, m, o.ID)
	if o.Status != StatusInstalled || o.Result == nil || *o.Result != (Result{Kind: KindClient, ID: "client", Name: "Web Client 3.0.0"}) {
		t.Fatalf("offer = %+v, result %+v", o, o.Result)
	}
	if got := readClientFile(t, m, "app.js"); got != "console.log('3.0.0')" {
		t.Fatalf("app.js = %q", got)
	}
	// A broken download fails the offer and keeps the installed client.
	srv.put("/broken.zip", []byte("not a zip"))
	o, err = m.OfferClient(srv.URL+"/broken.zip", "host")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Accept(o.ID, ""); err != nil {
		t.Fatal(err)
	}
	o = settle(t, m, o.ID)
	if o.Status != StatusFailed || !strings.Contains(o.Error, "zip archive") {
		t.Fatalf("offer = %+v", o)
	}
	if info := m.ClientFolder().Info(); info.Version != "3.0.0" {
		t.Fatalf("info = %+v after a failed offer", info)
	}
	assertNoStaging(t, env.dataDir)
}

func TestClientOfferURLPolicy(t *testing.T) {
	env := newTestEnv(t)
	m := newTestManager(t, env, nil, Limits{})
	for _, raw := range []string{"http://example.com/web-client.zip", "ftp://example.com/c.zip", "file:///etc/passwd", "web-client.zip"} {
		if _, err := m.OfferClient(raw, "host"); err == nil {
			t.Errorf("OfferClient(%q) accepted", raw)
		}
	}
	if n := len(m.Offers()); n != 0 {
		t.Fatalf("%d offers recorded for refused URLs", n)
	}
}

// assertNoStaging fails when an import left a staging folder behind.
func assertNoStaging(t *testing.T, dataDir string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dataDir, ".staging"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("staging folders left: %d", len(entries))
	}
}
