package imports

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// FuzzExtractZip feeds arbitrary bytes (seeded with small archives, hostile
// ones included) to the extractor under small limits: it never panics,
// refuses with an Invalid or TooLarge error, and whatever it writes stays
// inside the target as regular files within the size budget.
func FuzzExtractZip(f *testing.F) {
	for _, entries := range [][]zipEntry{
		{{name: "module.json", body: `{"name":"A"}`}, {name: "monsters/goblin.png", body: "png", store: true}},
		{{name: "../evil.txt", body: "x"}},
		{{name: `..\evil.txt`, body: "x"}},
		{{name: "link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}},
		{{name: "a", body: "1"}, {name: "a/b", body: "2"}},
		{{name: "A.json", body: "1"}, {name: "a.json", body: "2"}},
		{{name: "zeros.bin", body: strings.Repeat("\x00", 4096)}},
		{{name: "__MACOSX/._x", body: "junk"}, {name: "d/", body: ""}},
	} {
		f.Add(makeZip(f, entries...))
	}
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Add([]byte("not a zip"))
	const maxTotal = 64 << 10
	f.Fuzz(func(t *testing.T, data []byte) {
		// Extract into a folder of its own inside a fresh one, so that
		// anything written beside it is an escape we can see.
		root := t.TempDir()
		dst := filepath.Join(root, "target")
		if err := os.Mkdir(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		err := extractZip(bytes.NewReader(data), int64(len(data)), dst, Limits{MaxEntries: 64, MaxTotalBytes: maxTotal, MaxRatio: 50})
		if err != nil {
			if k := core.KindOf(err); k != core.KindInvalid && k != core.KindTooLarge {
				t.Fatalf("error of kind %s: %v", k, err)
			}
		}
		var total int64
		filepath.WalkDir(dst, func(p string, d fs.DirEntry, werr error) error {
			if werr != nil {
				t.Fatalf("walk: %v", werr)
			}
			rel, _ := filepath.Rel(dst, p)
			if d.Type()&fs.ModeSymlink != 0 {
				t.Fatalf("symbolic link %s written", rel)
			}
			if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
				total += info.Size()
			}
			return nil
		})
		beside, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		if len(beside) != 1 || beside[0].Name() != "target" {
			names := make([]string, len(beside))
			for i, e := range beside {
				names[i] = e.Name()
			}
			t.Fatalf("written outside the target: %v", names)
		}
		if total > maxTotal+1 {
			t.Fatalf("%d bytes written, over the %d budget", total, maxTotal)
		}
	})
}
