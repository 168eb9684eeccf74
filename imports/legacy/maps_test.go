package legacy

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

// A legacy archive's file reference becomes the URL of the file once
// installed when the archive holds it; an http(s) URL is kept; anything
// else (a file the archive lacks, a path out of it, a script URL) is
// dropped and counted as missing, for the report's notes.
func TestLegacyFilesResolveOnlyWhatTheArchiveHolds(t *testing.T) {
	f := &legacyFiles{fsys: fstest.MapFS{"maps/cave.png": {Data: []byte("png")}, "art": {Mode: fs.ModeDir}}, prefix: "/modules/fen"}
	for ref, want := range map[string]string{
		"maps/cave.png":              "/modules/fen/maps/cave.png",
		"/maps/cave.png":             "/modules/fen/maps/cave.png",
		" maps/cave.png ":            "/modules/fen/maps/cave.png",
		"https://example.org/a.png":  "https://example.org/a.png",
		"maps/gone.png":              "",
		"art":                        "",
		"../companion.db":            "",
		"javascript://%0aalert(1)":   "",
		"/systems/dnd5e/icons/x.svg": "",
		"":                           "",
	} {
		if got := f.file(ref); got != want {
			t.Errorf("file(%q) = %q, want %q", ref, got, want)
		}
	}
	if len(f.missing) != 5 {
		t.Errorf("missing %q: want the 5 references dropped (not the empty one)", f.missing)
	}
}
