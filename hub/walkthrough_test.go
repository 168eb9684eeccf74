package hub

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/architecture.md walks a newcomer through adding an event, naming
// files and identifiers. Every file it names exists, and every name it
// cites is declared here or in a file it names, so the walk-through cannot
// drift from the code it describes.
func TestAddingAnEventWalkThroughIsTrue(t *testing.T) {
	root := ".."
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "\n## Adding an event\n")
	if start < 0 {
		t.Fatal(`docs/architecture.md has no "## Adding an event" section`)
	}
	section := text[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var source strings.Builder
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		source.Write(b)
	}
	code := regexp.MustCompile("`([^`]+)`")
	isPath := func(item string) bool { return strings.Contains(item, "/") && !strings.Contains(item, "*") }
	// A name may also be one of a file the walk-through names (the client's
	// side, the description's tables): those files are read too.
	for _, m := range code.FindAllStringSubmatch(section, -1) {
		if !isPath(m[1]) {
			continue
		}
		named := filepath.Join(root, m[1])
		if more, _ := filepath.Glob(filepath.Join(named, "*.go")); len(more) > 0 {
			for _, f := range more {
				b, _ := os.ReadFile(f)
				source.Write(b)
			}
		} else if b, err := os.ReadFile(named); err == nil {
			source.Write(b)
		}
	}
	paths, names := 0, 0
	for _, m := range code.FindAllStringSubmatch(section, -1) {
		item := m[1]
		switch {
		case isPath(item):
			paths++
			if _, err := os.Stat(filepath.Join(root, item)); err != nil {
				t.Errorf("the walk-through names %s, which does not exist", item)
			}
		case regexp.MustCompile(`^[a-z][A-Za-z]+$|^Test[A-Za-z0-9]+$`).MatchString(item) && item != "requestId":
			names++
			if !regexp.MustCompile(`\b` + item + `\b`).MatchString(source.String()) {
				t.Errorf("the walk-through cites %s, which neither hub nor a file it names declares", item)
			}
		}
	}
	if paths < 5 || names < 5 {
		t.Fatalf("the walk-through names %d files and %d identifiers: the test no longer reads it", paths, names)
	}
}
