// Package shareddata finds the real test data that lives beside the
// repository in ../shared/data (SRD content, battle maps). It is never
// copied into the project; tests that need it skip when it is absent.
package shareddata

import (
	"os"
	"path/filepath"
)

// EnvDir overrides where the data folder is looked for.
const EnvDir = "COMPANION_SHARED_DATA"

// Root returns the shared data folder, or "" when it cannot be found. It
// looks at $COMPANION_SHARED_DATA, then at ../shared/data relative to the
// repository root (the folder holding go.mod) found from the working
// directory upwards.
func Root() string {
	if dir := os.Getenv(EnvDir); dir != "" {
		if isDir(dir) {
			return dir
		}
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			candidate := filepath.Join(dir, "..", "shared", "data")
			if isDir(candidate) {
				return candidate
			}
			return ""
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// Skipper is the part of a test (*testing.T, *testing.B, testing.TB) that
// Path uses. Taking it instead of testing.TB keeps the testing package out
// of this one, so no production package can pull it in through here.
type Skipper interface {
	Helper()
	Skipf(format string, args ...any)
}

// Path returns the path of sub (for example "srd5e/2014-en-5e-SRD-Monsters.json")
// inside the shared data folder, and skips the test with a clear message
// when the folder or the file is absent.
func Path(tb Skipper, sub string) string {
	tb.Helper()
	root := Root()
	if root == "" {
		tb.Skipf("shared test data not found (expected ../shared/data beside the repository, or $%s): skipping", EnvDir)
	}
	p := filepath.Join(root, filepath.FromSlash(sub))
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared test data %s not found: skipping", p)
	}
	return p
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
