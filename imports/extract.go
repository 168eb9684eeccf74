package imports

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/vttapp/companion/core"
)

// entryPath checks an archive entry name and returns its clean slash path.
// skip is true for entries that are dropped silently: directories and the
// litter of macOS (__MACOSX/, .DS_Store). Any name that could land outside
// the target folder is an error (zip slip).
func entryPath(name string) (clean string, skip bool, err error) {
	switch {
	case name == "":
		return "", false, core.Invalidf("archive entry with an empty name")
	case strings.Contains(name, `\`):
		return "", false, core.Invalidf("archive entry '%s' uses a backslash; paths must use '/'", name)
	case strings.HasPrefix(name, "/"):
		return "", false, core.Invalidf("archive entry '%s' is an absolute path", name)
	case len(name) >= 2 && name[1] == ':':
		return "", false, core.Invalidf("archive entry '%s' names a drive", name)
	case strings.ContainsRune(name, 0):
		return "", false, core.Invalidf("archive entry name contains a NUL byte")
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "", false, core.Invalidf("archive entry '%s' points outside the archive", name)
		}
	}
	if strings.HasSuffix(name, "/") {
		return "", true, nil
	}
	clean = path.Clean(name)
	if clean == "." || !fs.ValidPath(clean) {
		return "", false, core.Invalidf("archive entry '%s' is not a valid path", name)
	}
	if isLitter(clean) {
		return "", true, nil
	}
	return clean, false, nil
}

// isLitter reports the files macOS adds to archives, which are never content.
func isLitter(p string) bool {
	return p == "__MACOSX" || strings.HasPrefix(p, "__MACOSX/") || path.Base(p) == ".DS_Store"
}

// extractZip writes the regular files of a zip archive under dst, which must
// exist and be empty. It enforces the entry count, total size and
// compression ratio limits from the archive's directory and again while
// copying, because the directory can lie.
func extractZip(ra io.ReaderAt, size int64, dst string, lim Limits) error {
	lim = lim.WithDefaults()
	if n, ok := declaredEntries(ra, size); ok && n > uint64(lim.MaxEntries) {
		return core.TooLargef("the archive has %d entries; at most %d are accepted", n, lim.MaxEntries)
	}
	zr, err := zip.NewReader(ra, size)
	if errors.Is(err, zip.ErrInsecurePath) {
		return core.Invalidf("the archive has an entry whose path points outside it")
	}
	if err != nil {
		return core.Invalidf("not a valid zip archive (truncated or damaged): %v", err)
	}
	if len(zr.File) > lim.MaxEntries {
		return core.TooLargef("the archive has %d entries; at most %d are accepted", len(zr.File), lim.MaxEntries)
	}
	var declared uint64
	names := newEntryNames()
	for _, f := range zr.File {
		if _, skip, err := entryPath(f.Name); err != nil || skip {
			if err != nil {
				return err
			}
			continue
		}
		mode := f.Mode()
		if mode&fs.ModeSymlink != 0 {
			return core.Invalidf("archive entry '%s' is a symbolic link; links are not accepted", f.Name)
		}
		if !mode.IsRegular() && !mode.IsDir() {
			return core.Invalidf("archive entry '%s' is not a regular file", f.Name)
		}
		declared += f.UncompressedSize64
		if declared > uint64(lim.MaxTotalBytes) {
			return core.TooLargef("the archive unpacks to more than %d bytes", lim.MaxTotalBytes)
		}
		if mode.IsDir() {
			continue
		}
		if err := names.add(f.Name); err != nil {
			return err
		}
		if f.UncompressedSize64 > RatioFloor {
			if f.CompressedSize64 == 0 || f.UncompressedSize64/f.CompressedSize64 > uint64(lim.MaxRatio) {
				return core.TooLargef("archive entry '%s' is compressed more than %d to 1; refusing a likely zip bomb", f.Name, lim.MaxRatio)
			}
		}
	}
	// Entries of exactly RatioFloor escape the per-entry check; many of
	// them together are still a bomb (4 GiB on disk from a 4 MiB download).
	if declared > RatioFloor && declared/uint64(max(size, 1)) > uint64(lim.MaxRatio) {
		return core.TooLargef("the archive unpacks to %d bytes, more than %d times its size; refusing a likely zip bomb", declared, lim.MaxRatio)
	}
	budget := lim.MaxTotalBytes
	for _, f := range zr.File {
		name, skip, _ := entryPath(f.Name)
		if skip || f.Mode().IsDir() {
			continue
		}
		n, err := extractEntry(f, filepath.Join(dst, filepath.FromSlash(name)), budget)
		if err != nil {
			return err
		}
		budget -= n
	}
	return nil
}

// entryNames collects the file names of an archive, folded to lower case
// (the target may be a case-insensitive file system), and the folders
// they imply, so that a name given twice or used both as a file and as a
// folder is refused before anything is written.
type entryNames struct {
	files, folders map[string]string // folded -> as written
}

func newEntryNames() *entryNames {
	return &entryNames{files: map[string]string{}, folders: map[string]string{}}
}

// add records a regular file entry; folder entries and litter are skipped
// by the caller.
func (n *entryNames) add(raw string) error {
	name, _, _ := entryPath(raw)
	key := strings.ToLower(name)
	if _, dup := n.files[key]; dup {
		return core.Invalidf("archive entry '%s' appears twice", name)
	}
	if _, isFolder := n.folders[key]; isFolder {
		return core.Invalidf("archive entry '%s' is both a file and a folder", name)
	}
	n.files[key] = name
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		dkey := strings.ToLower(dir)
		if _, isFile := n.files[dkey]; isFile {
			return core.Invalidf("archive entry '%s' is both a file and a folder", dir)
		}
		n.folders[dkey] = dir
	}
	return nil
}

// declaredEntries reads the entry count from the archive's end record
// (zip64 included) without parsing the central directory, which
// zip.NewReader does in full, allocating a header per entry. ok is false
// when no end record is found; zip.NewReader then reports the damage.
func declaredEntries(ra io.ReaderAt, size int64) (n uint64, ok bool) {
	const endLen, zip64LocatorLen = 22, 20
	tailLen := min(size, endLen+65535) // the end record, then a comment of at most 64 KiB
	tail := make([]byte, tailLen)
	if _, err := ra.ReadAt(tail, size-tailLen); err != nil && !errors.Is(err, io.EOF) {
		return 0, false
	}
	i := bytes.LastIndex(tail, []byte("PK\x05\x06"))
	if i < 0 || len(tail)-i < endLen {
		return 0, false
	}
	n = uint64(binary.LittleEndian.Uint16(tail[i+10:]))
	if n != 0xFFFF {
		return n, true
	}
	// zip64: the locator just before the end record gives where the zip64
	// end record is; its count is a 64-bit field at offset 32.
	locAt := size - tailLen + int64(i) - zip64LocatorLen
	loc := make([]byte, zip64LocatorLen)
	if locAt < 0 {
		return n, true
	}
	if _, err := ra.ReadAt(loc, locAt); err != nil || string(loc[:4]) != "PK\x06\x07" {
		return n, true
	}
	end64 := make([]byte, 56)
	at := int64(binary.LittleEndian.Uint64(loc[8:]))
	if at < 0 || at > size-56 {
		return n, true
	}
	if _, err := ra.ReadAt(end64, at); err != nil || string(end64[:4]) != "PK\x06\x06" {
		return n, true
	}
	return binary.LittleEndian.Uint64(end64[32:]), true
}

// extractEntry copies one entry, reading at most budget bytes. Errors name
// the entry, not the staging folder.
func extractEntry(f *zip.File, target string, budget int64) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return 0, core.Invalidf("archive entry '%s' cannot be written: %v", f.Name, pathErrCause(err))
	}
	rc, err := f.Open()
	if err != nil {
		return 0, core.Invalidf("archive entry '%s' cannot be read: %v", f.Name, err)
	}
	defer rc.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, core.Invalidf("archive entry '%s' cannot be written: %v", f.Name, pathErrCause(err))
	}
	n, err := io.Copy(out, io.LimitReader(rc, budget+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, core.Invalidf("archive entry '%s' is damaged or truncated: %v", f.Name, err)
	}
	if n > budget {
		return n, core.TooLargef("the archive unpacks to more than its size limit")
	}
	return n, nil
}

// pathErrCause drops the path from a file system error.
func pathErrCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// copyFS copies the regular files of fsys under dst with the same name
// rules as an archive (used to seed the sample folders).
func copyFS(fsys fs.FS, dst string) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if isLitter(p) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
