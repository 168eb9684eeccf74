package scripting

import (
	"testing"
	"testing/fstest"
	"time"
)

// start compiles files (entry "system.lua") and starts a runtime.
func start(t testing.TB, files map[string]string, opts Options) *Runtime {
	t.Helper()
	rt, err := tryStart(files, opts)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(rt.Close)
	return rt
}

func tryStart(files map[string]string, opts Options) (*Runtime, error) {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	prog, err := Compile(fsys, "system.lua")
	if err != nil {
		return nil, err
	}
	if opts.CallTimeout == 0 {
		opts.CallTimeout = 2 * time.Second
	}
	return Start(prog, opts)
}

// kindWith returns an entry script declaring kind "thing" with the given
// view body (the function's parameter is e).
func kindWith(viewBody string) string {
	return `local companion = require("companion")
companion.entity("thing", {
  collection = "things",
  view = function(e)
` + viewBody + `
  end,
  references = function(e) return e end,
})
`
}
