package docs

// Keeps the documentation honest: every route the server registers and
// every event name it knows is in the docs, and the docs send a reader only
// to files of this repository. They read the source (go/ast), not a running
// router, so they hold wherever a route or an event constant moves to
// inside routes/ and core/.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// routeMethods are the chi router methods that register a route.
var routeMethods = map[string]string{"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE"}

// registeredRoutes returns "METHOD /path" for every route registered with a
// literal path in the non-test Go files under dir: calls such as
// r.Get("/api/tokens/{id}", ...). Header.Get("Origin") and the like are
// not routes: their argument does not start with a slash.
func registeredRoutes(t *testing.T, dir string) []string {
	t.Helper()
	var routes []string
	seen := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			method, ok := routeMethods[sel.Sel.Name]
			lit, isLit := call.Args[0].(*ast.BasicLit)
			if !ok || !isLit || lit.Kind != token.STRING {
				return true
			}
			p, err := strconv.Unquote(lit.Value)
			if err != nil || !strings.HasPrefix(p, "/") {
				return true
			}
			if route := method + " " + p; !seen[route] {
				seen[route] = true
				routes = append(routes, route)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return routes
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDocsListEveryRoute: every public route is in docs/api.md and every
// host console route in docs/host-console.md, written as `METHOD /path`.
func TestDocsListEveryRoute(t *testing.T) {
	api := readDoc(t, "../../docs/api.md")
	host := readDoc(t, "../../docs/host-console.md")
	routes := registeredRoutes(t, "../../routes")
	for _, want := range []string{"GET /api/tokens/{id}", "POST /api/import", "GET /host/ws", "GET /{kind}/{slug}"} {
		if !slices.Contains(routes, want) {
			t.Fatalf("the scan of routes/ did not find %q among %d routes: the test no longer sees how routes are registered", want, len(routes))
		}
	}
	for _, route := range routes {
		doc, name := api, "docs/api.md"
		if path := strings.SplitN(route, " ", 2)[1]; strings.HasPrefix(path, "/host") {
			doc, name = host, "docs/host-console.md"
		}
		if !strings.Contains(doc, "`"+route+"`") {
			t.Errorf("%s does not document `%s`: add it to its table", name, route)
		}
	}
}

// eventNames returns the string values of the constants named Event* and
// Request* in the non-test Go files of dir: the names the server
// broadcasts and the requests clients may send.
func eventNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, entry := range entries {
		if !strings.HasSuffix(entry.Name(), ".go") || strings.HasSuffix(entry.Name(), "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, entry.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if (!strings.HasPrefix(id.Name, "Event") && !strings.HasPrefix(id.Name, "Request")) || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if v, err := strconv.Unquote(lit.Value); err == nil {
							names = append(names, v)
						}
					}
				}
			}
		}
	}
	return names
}

// TestAPIDocNamesEveryEvent: every WebSocket event name the core defines,
// sent or only reserved, is in docs/api.md, and so is the error reply.
func TestAPIDocNamesEveryEvent(t *testing.T) {
	api := readDoc(t, "../../docs/api.md")
	names := eventNames(t, "../../core")
	if len(names) < 40 || !slices.Contains(names, "tokenMoved") || !slices.Contains(names, "updateDoor") {
		t.Fatalf("found only %d event names in core (%v): the test no longer sees where they are declared", len(names), names)
	}
	for _, name := range append(names, "error") {
		if !strings.Contains(api, "`"+name+"`") {
			t.Errorf("docs/api.md does not name the event `%s`: say what it carries and when (or that it is reserved)", name)
		}
	}
}

// markdownLink finds the target of a [text](target) link.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsStayInsideTheRepository: a reader with only a clone can follow
// every link of the README and docs/, and no document points at the
// shared folder beside the repository, which a clone does not have.
func TestDocsStayInsideTheRepository(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) < 5 {
		t.Fatalf("docs: %v %v", docs, err)
	}
	docs = append(docs, "../../README.md", "../../web/client/README.md")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs {
		text := readDoc(t, doc)
		if strings.Contains(text, "../shared") {
			t.Errorf("%s points at ../shared, outside the repository: point at our own docs instead", doc)
		}
		for _, m := range markdownLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			abs, err := filepath.Abs(filepath.Join(filepath.Dir(doc), target))
			if err != nil {
				t.Fatal(err)
			}
			if rel, err := filepath.Rel(root, abs); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s links to %s, outside the repository", doc, m[1])
				continue
			}
			if _, err := os.Stat(abs); err != nil {
				t.Errorf("%s links to %s, which does not exist", doc, m[1])
			}
		}
	}
}

// TestAddingAFieldWalkThroughIsTrue: every file the "Wire shapes" and
// "Adding a field" sections of docs/architecture.md name exists, and the
// Go identifiers they cite in wire are declared there, so the
// walk-through cannot drift from the code.
func TestAddingAFieldWalkThroughIsTrue(t *testing.T) {
	doc := readDoc(t, "../../docs/architecture.md")
	var section string
	for _, title := range []string{"\n## Wire shapes\n", "\n## Adding a field\n"} {
		start := strings.Index(doc, title)
		if start < 0 {
			t.Fatalf("docs/architecture.md has no %q section", strings.TrimSpace(title))
		}
		part := doc[start+len(title):]
		if end := strings.Index(part, "\n## "); end >= 0 {
			part = part[:end]
		}
		section += part
	}
	routesSource := ""
	for _, f := range []string{"../../wire/public.go", "../../wire/shapes.go", "../../wire/events.go"} {
		routesSource += readDoc(t, f)
	}
	paths, names := 0, 0
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(section, -1) {
		item := strings.TrimSuffix(m[1], "/")
		switch {
		case strings.Contains(item, "/") && !strings.ContainsAny(item, " *<") && item != "encoding/json":
			paths++
			if _, err := os.Stat(filepath.Join("..", "..", item)); err != nil {
				t.Errorf("the walk-through names %s, which does not exist", item)
			}
		case regexp.MustCompile(`^(fieldNotes|wireShapes|eventShapes)$`).MatchString(item):
			names++
			if !strings.Contains(routesSource, item+" = ") {
				t.Errorf("the walk-through cites %s, which wire does not declare", item)
			}
		}
	}
	if paths < 8 || names < 2 {
		t.Fatalf("the walk-through names %d files and %d identifiers: the test no longer reads it", paths, names)
	}
}
