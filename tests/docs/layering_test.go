package docs

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/vttapp/companion"

// TestLayering enforces docs/architecture.md: arrows point down only. Each
// package below may not depend, even indirectly, on the packages listed.
func TestLayering(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not on PATH")
	}
	upper := []string{module + "/routes", module + "/hub", module + "/cmd", module + "/web", module + "/tests"}
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		// The domain knows nothing of HTTP, Lua, templates or the loaded system.
		{"core", append([]string{module + "/systems", module + "/scripting", module + "/templates", module + "/store/sqlite", module + "/imports",
			"net/http", "github.com/yuin/gopher-lua", "github.com/flosch/pongo2", "github.com/go-chi", "github.com/gorilla/websocket", "modernc.org/sqlite"}, upper...)},
		// Dice is a leaf: the standard library only.
		{"dice", []string{module + "/"}},
		// So is the geometry of line of sight: core gives it bare segments.
		{"sight", []string{module + "/"}},
		// The legacy XML readers are a leaf: the importer and its tests use them.
		{"imports/legacyxml", []string{module + "/"}},
		// So is the reader of image and video headers.
		{"imports/media", []string{module + "/"}},
		// The text helpers of Lua and templates are a leaf too.
		{"textfmt", []string{module + "/"}},
		// The mDNS advertiser knows nothing of the server it advertises.
		{"discovery", []string{module + "/"}},
		// Nor does the desktop hand-off know the server: it writes files
		// and opens pages.
		{"desktop", []string{module + "/"}},
		// The fog mask is image work on the core's types: no HTTP, no store.
		{"fog", append([]string{module + "/systems", module + "/scripting", module + "/templates", module + "/store/sqlite", module + "/imports",
			"net/http"}, upper...)},
		{"store/sqlite", append([]string{module + "/systems", module + "/scripting", module + "/templates", module + "/imports", "net/http"}, upper...)},
		{"imports", append([]string{module + "/systems", module + "/scripting", module + "/templates", module + "/store/sqlite"}, upper...)},
		// The Lua runtime knows nothing of HTTP.
		{"scripting", append([]string{module + "/systems", module + "/templates", module + "/store/sqlite", module + "/imports", "net/http"}, upper...)},
		{"templates", append([]string{module + "/systems", module + "/scripting", module + "/store/sqlite", module + "/imports"}, upper...)},
		{"systems", append([]string{module + "/store/sqlite", module + "/imports", "github.com/go-chi", "github.com/gorilla/websocket"}, upper...)},
		// Backups know the data folder's layout, not the database (its
		// snapshot and check are given to them) nor the rest of the server.
		{"backup", append([]string{module + "/store/sqlite", module + "/imports", module + "/systems", module + "/scripting",
			module + "/templates", "net/http", "modernc.org/sqlite"}, upper...)},
		{"routes", []string{module + "/cmd", module + "/tests", module + "/store/sqlite"}},
		// The wire description is types and documents: no handlers, no
		// router, no store; routes serves it and tsgen reads it.
		{"wire", []string{module + "/routes", module + "/cmd", module + "/tests", module + "/web", module + "/store/sqlite", "github.com/go-chi"}},
		// The WebSocket hub speaks to the core alone: it knows nothing of the
		// HTTP routes that hand it connections, of systems, Lua or templates.
		{"hub", []string{module + "/routes", module + "/cmd", module + "/tests", module + "/web", module + "/systems",
			module + "/scripting", module + "/templates", module + "/store/sqlite", module + "/imports", "github.com/go-chi"}},
	}
	for _, r := range rules {
		t.Run(r.pkg, func(t *testing.T) {
			out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+"/"+r.pkg).CombinedOutput()
			if err != nil {
				t.Fatalf("go list %s: %v\n%s", r.pkg, err, out)
			}
			for _, dep := range strings.Fields(string(out)) {
				if dep == module+"/"+r.pkg {
					continue
				}
				for _, bad := range r.forbidden {
					if dep == bad || strings.HasPrefix(dep, bad+"/") || (strings.HasSuffix(bad, "/") && strings.HasPrefix(dep, bad)) {
						t.Errorf("%s depends on %s, which the layering forbids", r.pkg, dep)
					}
				}
			}
		})
	}
}

// TestNoProductionPackageImportsTesting: the testing package and the shared
// test helpers (internal/testkit) belong to tests. A production package
// that imports either, even indirectly, ships test code in the binary and
// registers the test flags on its command line.
func TestNoProductionPackageImportsTesting(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not on PATH")
	}
	// One line per package: its path, then every package it depends on.
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := fields[0]
		if pkg == module+"/tests" || strings.HasPrefix(pkg, module+"/tests/") || pkg == module+"/internal/testkit" {
			continue
		}
		checked++
		for _, dep := range fields[1:] {
			if dep == "testing" || dep == module+"/internal/testkit" {
				t.Errorf("%s depends on %s: only tests may", pkg, dep)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d production packages listed: go list output is not what this test expects:\n%s", checked, out)
	}
}

// TestOneImplementation names packages that must use a shared one instead
// of their own: the Lua runtime rolls and averages dice with the dice
// package (the project's one dice engine), and Lua's companion.format and
// the template filters both write numbers with textfmt, so a view and a
// page agree.
func TestOneImplementation(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not on PATH")
	}
	required := map[string][]string{
		"scripting": {module + "/dice", module + "/textfmt"},
		"templates": {module + "/textfmt"},
	}
	for pkg, imports := range required {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, module+"/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		direct := map[string]bool{}
		for _, imp := range strings.Fields(string(out)) {
			direct[imp] = true
		}
		for _, want := range imports {
			if !direct[want] {
				t.Errorf("%s does not import %s: it must use it rather than its own copy", pkg, want)
			}
		}
	}
}

// TestHubWritesThroughGorillaAlone: the hub writes its frames through
// gorilla's writer, never on the socket beside it (issue 34): none of its
// files imports syscall, golang.org/x/sys or net's raw connections. A raw
// write assumed no compression, could not work behind TLS, and raced Go's
// poller.
func TestHubWritesThroughGorillaAlone(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, module+"/hub").CombinedOutput()
	if err != nil {
		t.Fatalf("go list hub: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, "github.com/gorilla/websocket") {
		t.Fatalf("hub imports %v: no gorilla/websocket, the check below reads the wrong list", imports)
	}
	for _, imp := range imports {
		if imp == "syscall" || strings.HasPrefix(imp, "golang.org/x/sys") || imp == "internal/poll" {
			t.Errorf("hub imports %s: frames go through gorilla's writer, not the raw socket", imp)
		}
	}
	src, err := exec.Command("grep", "-rl", "SyscallConn\\|RawConn", "../../hub").CombinedOutput()
	if len(src) > 0 {
		t.Errorf("hub reaches the raw socket in %s", src)
	} else if code := exitCode(err); code != 1 {
		t.Fatalf("grep: %v", err)
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
