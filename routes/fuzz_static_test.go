package routes

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzStaticPaths sends arbitrary request paths to the public handler with
// a secret beside the data folders (companion.db's place) and outside the
// data folder: no path serves either, and none is answered with a 5xx.
func FuzzStaticPaths(f *testing.F) {
	for _, seed := range []string{
		"/modules/m1/ok.txt", "/modules/..%2f..%2fsecret.txt", "/modules/%2e%2e/secret.txt", "/modules/..%5csecret.txt",
		"/modules/%252e%252e%252fsecret.txt", "/modules/m1/ok.txt%00", "/systems/dnd5e/..%2f..%2fsecret.txt",
		"/client/..%2fsecret.txt", "/client/out/outside.txt", "/client/%2e%2e/secret.txt", "/campaigns/out/outside.txt", "/monster.%2e%2e", "/%3Cscript%3E.x", "/others//secret.txt",
	} {
		f.Add(seed)
	}
	e := newEnv(f, envOptions{})
	outside := f.TempDir()
	for path, content := range map[string]string{
		filepath.Join(e.dataDir, "secret.txt"):              "TOP SECRET INSIDE",
		filepath.Join(e.dataDir, "modules", "m1", "ok.txt"): "ok",
		filepath.Join(e.dataDir, "client", "index.html"):    "installed client",
		filepath.Join(outside, "outside.txt"):               "TOP SECRET OUTSIDE",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(e.dataDir, "campaigns"), 0o755)
	for _, link := range []string{filepath.Join(e.dataDir, "campaigns", "out"), filepath.Join(e.dataDir, "client", "out")} {
		if err := os.Symlink(outside, link); err != nil {
			f.Fatal(err)
		}
	}
	handler := e.srv.Config.Handler
	f.Fuzz(func(t *testing.T, path string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \r\n\t#?") {
			return
		}
		req, err := http.NewRequest("GET", "http://x"+path, nil)
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%q: %d %s", path, rec.Code, rec.Body)
		}
		if strings.Contains(rec.Body.String(), "TOP SECRET") {
			t.Fatalf("%q served a secret", path)
		}
	})
}
