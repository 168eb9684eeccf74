package systems

import (
	"io/fs"
	"os"
	"testing/fstest"
)

// emptyFS is a folder with nothing in it.
type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return fstest.MapFS{}.Open(name)
}

// subIfDir returns fsys's sub-folder dir when it exists.
func subIfDir(fsys fs.FS, dir string) (fs.FS, bool) {
	info, err := fs.Stat(fsys, dir)
	if err != nil || !info.IsDir() {
		return nil, false
	}
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, false
	}
	return sub, true
}

func subOrEmpty(fsys fs.FS, dir string) fs.FS {
	if sub, ok := subIfDir(fsys, dir); ok {
		return sub
	}
	return emptyFS{}
}

func dirFS(dir string) fs.FS { return os.DirFS(dir) }
