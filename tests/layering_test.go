package tests

import (
	"os/exec"
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
	upper := []string{module + "/routes", module + "/cmd", module + "/web", module + "/tests"}
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		// The domain knows nothing of HTTP, Lua, templates or the loaded system.
		{"core", append([]string{module + "/systems", module + "/scripting", module + "/templates", module + "/core/sqlite", module + "/core/imports",
			"net/http", "github.com/yuin/gopher-lua", "github.com/flosch/pongo2", "github.com/go-chi", "github.com/gorilla/websocket", "modernc.org/sqlite"}, upper...)},
		// Dice is a leaf: the standard library only.
		{"core/dice", []string{module + "/"}},
		{"core/sqlite", append([]string{module + "/systems", module + "/scripting", module + "/templates", module + "/core/imports", "net/http"}, upper...)},
		{"core/imports", append([]string{module + "/systems", module + "/scripting", module + "/templates", module + "/core/sqlite"}, upper...)},
		// The Lua runtime knows nothing of HTTP.
		{"scripting", append([]string{module + "/systems", module + "/templates", module + "/core/sqlite", module + "/core/imports", "net/http"}, upper...)},
		{"templates", append([]string{module + "/systems", module + "/scripting", module + "/core/sqlite", module + "/core/imports"}, upper...)},
		{"systems", append([]string{module + "/core/sqlite", module + "/core/imports", "github.com/go-chi", "github.com/gorilla/websocket"}, upper...)},
		{"routes", []string{module + "/cmd", module + "/tests", module + "/core/sqlite"}},
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
