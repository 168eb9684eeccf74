package docs

import (
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// archSection is the heading of the part of docs/architecture.md read.
const archSection = "## Parts and the layering rule"

// goPackage is what the code says of one package of ours: the packages of
// ours and the modules from outside that its non-test files import.
type goPackage struct {
	ours    []string // paths relative to the module, "core", "store/sqlite"
	outside []string // module paths, "github.com/google/uuid"
}

// codePackages lists every package of the module (go list ./...) with its
// imports, read by the go command.
func codePackages(t *testing.T) map[string]goPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f",
		"{{.ImportPath}}\t{{if .Module}}{{.Module.Path}}{{end}}\t{{.Standard}}\t{{join .Imports \" \"}}", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	type entry struct {
		module   string
		standard bool
		imports  []string
	}
	all := map[string]entry{}
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("go list line %q: want 4 tab-separated fields", line)
		}
		all[f[0]] = entry{module: f[1], standard: f[2] == "true", imports: strings.Fields(f[3])}
	}
	pkgs := map[string]goPackage{}
	for path, e := range all {
		rel, ok := strings.CutPrefix(path, module+"/")
		if !ok || e.module != module {
			continue
		}
		var p goPackage
		for _, imp := range e.imports {
			if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				p.ours = append(p.ours, r)
			} else if dep, ok := all[imp]; ok && !dep.standard && dep.module != "" && !slices.Contains(p.outside, dep.module) {
				p.outside = append(p.outside, dep.module)
			}
		}
		pkgs[rel] = p
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list gave %d packages of ours: not what this test expects:\n%s", len(pkgs), out)
	}
	return pkgs
}

// docPackage is a row of the table.
type docPackage struct {
	ours, outside []string
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readArchitecture reads the table and the drawing of the layers from the
// section; problems lists what it could not read.
func readArchitecture(doc string) (rows map[string]docPackage, layers map[string]int, problems []string) {
	start := strings.Index(doc, "\n"+archSection+"\n")
	if start < 0 {
		return nil, nil, []string{fmt.Sprintf("no %q section", archSection)}
	}
	section := doc[start+len(archSection)+2:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	rows, layers = map[string]docPackage{}, map[string]int{}
	inBlock, layer := false, -1
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			// "N   pkg pkg ..." starts layer N; an indented line goes on.
			fields := strings.Fields(line)
			if len(fields) == 0 {
				continue
			}
			if n, err := strconv.Atoi(fields[0]); err == nil && !strings.HasPrefix(line, " ") {
				layer, fields = n, fields[1:]
			} else if layer < 0 || !strings.HasPrefix(line, " ") {
				problems = append(problems, fmt.Sprintf("the drawing of the layers has a line that names no layer: %q", line))
				continue
			}
			for _, pkg := range fields {
				if _, dup := layers[pkg]; dup {
					problems = append(problems, fmt.Sprintf("the drawing puts %s on two layers", pkg))
				}
				layers[pkg] = layer
			}
			continue
		}
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 {
			problems = append(problems, fmt.Sprintf("a row of the table has %d cells, want 4 (package, owns, imports of ours, from outside): %q", len(cells), line))
			continue
		}
		pkg := strings.TrimSuffix(strings.Trim(cells[0], "`"), "/")
		if _, dup := rows[pkg]; dup {
			problems = append(problems, fmt.Sprintf("the table has two rows for %s", pkg))
		}
		var row docPackage
		for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
			row.ours = append(row.ours, strings.TrimSuffix(m[1], "/"))
		}
		for _, m := range backticked.FindAllStringSubmatch(cells[3], -1) {
			row.outside = append(row.outside, m[1])
		}
		rows[pkg] = row
	}
	if len(rows) == 0 {
		problems = append(problems, "the section has no table of packages (rows starting with | `package`)")
	}
	if len(layers) == 0 {
		problems = append(problems, "the section has no drawing of the layers (a ``` block of lines \"N   package ...\")")
	}
	return rows, layers, problems
}

// checkArchitecture compares the document with the code and returns every
// difference, in a stable order.
func checkArchitecture(doc string, code map[string]goPackage) []string {
	rows, layers, problems := readArchitecture(doc)
	if rows == nil {
		return problems
	}
	var names []string
	for pkg := range code {
		names = append(names, pkg)
	}
	sort.Strings(names)
	for _, pkg := range names {
		if _, ok := rows[pkg]; !ok {
			problems = append(problems, fmt.Sprintf("package %s is not in the table of packages", pkg))
		}
		if _, ok := layers[pkg]; !ok {
			problems = append(problems, fmt.Sprintf("package %s is not in the drawing of the layers", pkg))
		}
	}
	for _, pkg := range sortedKeys(rows) {
		if _, ok := code[pkg]; !ok {
			problems = append(problems, fmt.Sprintf("the table names %s, which is not a package (go list ./...)", pkg))
		}
	}
	for _, pkg := range sortedKeys(layers) {
		if _, ok := code[pkg]; !ok {
			problems = append(problems, fmt.Sprintf("the drawing of the layers names %s, which is not a package (go list ./...)", pkg))
		}
	}
	for _, pkg := range names {
		p, row := code[pkg], rows[pkg]
		if _, ok := rows[pkg]; ok {
			problems = append(problems, compareSets(pkg, "imports", p.ours, row.ours)...)
			problems = append(problems, compareSets(pkg, "imports the module", p.outside, row.outside)...)
		}
		here, ok := layers[pkg]
		if !ok {
			continue
		}
		for _, imp := range p.ours {
			if below, ok := layers[imp]; ok && below >= here {
				problems = append(problems, fmt.Sprintf("%s (layer %d) imports %s (layer %d): the drawing must put an import on a lower layer", pkg, here, imp, below))
			}
		}
	}
	return problems
}

// compareSets names what the code has and the table lacks, and the reverse.
func compareSets(pkg, verb string, code, doc []string) []string {
	var out []string
	for _, c := range code {
		if !slices.Contains(doc, c) {
			out = append(out, fmt.Sprintf("%s %s %s, which its row does not list", pkg, verb, c))
		}
	}
	for _, d := range doc {
		if !slices.Contains(code, d) {
			out = append(out, fmt.Sprintf("the row of %s lists %s, which it does not import", pkg, d))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestArchitectureDocListsEveryPackage: the table and the layers of
// docs/architecture.md name every package go list ./... gives and no
// other, with the imports each really has, each import on a lower layer.
func TestArchitectureDocListsEveryPackage(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not on PATH")
	}
	code := codePackages(t)
	doc := readDoc(t, "../../docs/architecture.md")
	for _, p := range checkArchitecture(doc, code) {
		t.Error("docs/architecture.md: " + p)
	}
}

// TestArchitectureDocCheckFindsDrift runs the check above on a small
// document and code of its own, each changed in one way the real ones may
// drift, and wants the one problem that change makes.
func TestArchitectureDocCheckFindsDrift(t *testing.T) {
	doc := "# A\n\n" + archSection + "\n\n```\n2   app\n1   core   extra\n0   leaf\n    other/leaf\n```\n\n" +
		"| package | owns | imports of ours | from outside |\n|---|---|---|---|\n" +
		"| `app` | wiring | `core`, `leaf` | `rsc.io/qr` |\n" +
		"| `core` | the domain | `leaf` | - |\n" +
		"| `extra` | more | `leaf`, `other/leaf` | - |\n" +
		"| `leaf` | a leaf | standard library only | - |\n" +
		"| `other/leaf` | a leaf | - | `golang.org/x/net` |\n\n## Next\n\n| `notread` | x | y | z |\n"
	code := func() map[string]goPackage {
		return map[string]goPackage{
			"app":        {ours: []string{"core", "leaf"}, outside: []string{"rsc.io/qr"}},
			"core":       {ours: []string{"leaf"}},
			"extra":      {ours: []string{"leaf", "other/leaf"}},
			"leaf":       {},
			"other/leaf": {outside: []string{"golang.org/x/net"}},
		}
	}
	if got := checkArchitecture(doc, code()); len(got) != 0 {
		t.Fatalf("a true document: %q", got)
	}
	cases := []struct {
		name string
		doc  string
		code func(map[string]goPackage)
		want []string
	}{
		{"a package added", doc, func(c map[string]goPackage) { c["new"] = goPackage{} },
			[]string{"package new is not in the table of packages", "package new is not in the drawing of the layers"}},
		{"a package removed", doc, func(c map[string]goPackage) { delete(c, "extra") },
			[]string{"the table names extra, which is not a package (go list ./...)", "the drawing of the layers names extra, which is not a package (go list ./...)"}},
		{"a package moved", doc, func(c map[string]goPackage) {
			c["leaf2"] = c["other/leaf"]
			delete(c, "other/leaf")
			c["extra"] = goPackage{ours: []string{"leaf", "leaf2"}}
		}, []string{
			"package leaf2 is not in the table of packages", "package leaf2 is not in the drawing of the layers",
			"the table names other/leaf, which is not a package (go list ./...)", "the drawing of the layers names other/leaf, which is not a package (go list ./...)",
			"extra imports leaf2, which its row does not list", "the row of extra lists other/leaf, which it does not import",
		}},
		{"an import added", doc, func(c map[string]goPackage) { c["core"] = goPackage{ours: []string{"leaf", "other/leaf"}} },
			[]string{"core imports other/leaf, which its row does not list"}},
		{"an import dropped", doc, func(c map[string]goPackage) {
			c["app"] = goPackage{ours: []string{"core"}, outside: []string{"rsc.io/qr"}}
		},
			[]string{"the row of app lists leaf, which it does not import"}},
		{"a module added", doc, func(c map[string]goPackage) { c["leaf"] = goPackage{outside: []string{"github.com/google/uuid"}} },
			[]string{"leaf imports the module github.com/google/uuid, which its row does not list"}},
		{"an import upward", doc, func(c map[string]goPackage) { c["core"] = goPackage{ours: []string{"leaf", "extra"}} },
			[]string{"core imports extra, which its row does not list", "core (layer 1) imports extra (layer 1): the drawing must put an import on a lower layer"}},
		{"a row without its package", strings.Replace(doc, "| `core` | the domain | `leaf` | - |\n", "", 1), nil,
			[]string{"package core is not in the table of packages"}},
		{"a layer without its package", strings.Replace(doc, "1   core   extra", "1   extra", 1), nil,
			[]string{"package core is not in the drawing of the layers"}},
		{"no section", strings.Replace(doc, archSection, "## Elsewhere", 1), nil,
			[]string{fmt.Sprintf("no %q section", archSection)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pkgs := code()
			if c.code != nil {
				c.code(pkgs)
			}
			got := checkArchitecture(c.doc, pkgs)
			if !slices.Equal(got, c.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
