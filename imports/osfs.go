package imports

import (
	"io/fs"
	"os"
)

// osFS is the data folder as a file system, for existence checks.
func osFS(dir string) fs.FS { return os.DirFS(dir) }
