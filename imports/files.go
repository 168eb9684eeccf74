package imports

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/legacyxml"
	"github.com/vttapp/companion/imports/media"
	"github.com/vttapp/companion/imports/uvtt"
)

// InstallFile installs a file on disk: a zip archive (.module, .campaign,
// .system, .vttapp, ...) whose root file decides what it is, a compendium
// XML file, a Universal VTT map, or an image or video that becomes a map
// waiting for its grid (mediamap.go). The type is decided from the bytes,
// not the name; name (the original file name) only names a map or a
// compendium's module. The file itself is left in place.
func (in *Installer) InstallFile(ctx context.Context, path, name string, opt InstallOptions) (Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return Result{}, core.Internal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Result{}, core.Internal(err)
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case n == 0:
		return Result{}, core.Invalidf("the file is empty")
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		dir, err := in.site.NewStage()
		if err != nil {
			return Result{}, err
		}
		if err := extractZip(f, info.Size(), dir, in.site.Limits); err != nil {
			os.RemoveAll(dir)
			return Result{}, err
		}
		return in.installStaged(ctx, dir, opt)
	case isXML(head):
		_, root := legacyxml.Sniff(head)
		return in.installXMLFile(ctx, path, name, root, opt)
	case isMedia(head):
		format, _ := media.Sniff(head)
		return in.installMediaMap(ctx, f, info.Size(), format, name, opt)
	case uvtt.LooksLike(head) || hasUVTTExt(name):
		if opt.Expect != "" {
			return Result{}, core.Invalidf("the package says it is a %s, but the download is a map", opt.Expect)
		}
		if info.Size() > in.site.Limits.MaxMapBytes {
			return Result{}, core.TooLargef("the map file is %d bytes; at most %d are accepted", info.Size(), in.site.Limits.MaxMapBytes)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return Result{}, core.Internal(err)
		}
		data, err := io.ReadAll(f)
		if err != nil {
			return Result{}, core.Internal(err)
		}
		um, err := uvtt.Parse(data, mapName(name))
		if err != nil {
			return Result{}, err
		}
		return in.InstallMap(ctx, um, opt)
	default:
		return Result{}, core.Invalidf("unsupported file '%s': expected a zip archive (.module, .campaign, .system, .vttapp, .compendium, .pack), a compendium or legacy module XML file, a Universal VTT map (.uvtt, .dd2vtt, .df2vtt), or an image (PNG, JPEG, WebP, GIF) or video (MP4, WebM) to make a map of", filepath.Base(name))
	}
}

// isXML recognises an XML document by its first bytes (a declaration,
// a comment or an element; a byte order mark first is fine).
func isXML(head []byte) bool {
	ok, _ := legacyxml.Sniff(head)
	return ok
}

// isMedia recognises an image or a video by its magic number.
func isMedia(head []byte) bool {
	_, ok := media.Sniff(head)
	return ok
}

func hasUVTTExt(name string) bool {
	lower := strings.ToLower(name)
	for _, ext := range uvtt.Extensions {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// InstallMap files a parsed Universal VTT map into the destination module
// or campaign (default: the primary campaign); its image is saved as
// maps/<map id>.<ext> in the destination's folder.
func (in *Installer) InstallMap(ctx context.Context, um *uvtt.Map, opt InstallOptions) (Result, error) {
	dest, err := in.site.Destination(ctx, opt.Destination)
	if err != nil {
		return Result{}, err
	}
	_, prefix := in.site.OwnerFolder(dest.Kind, dest.ID)
	m := um.Map
	m.Owner = dest.ID
	file := m.ID + um.ImageExt
	m.Image = prefix + "/maps/" + file
	stage, err := in.site.NewStage()
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(stage)
	staged := filepath.Join(stage, file)
	if err := os.WriteFile(staged, um.Image, 0o644); err != nil {
		return Result{}, core.Internal(err)
	}
	return in.placeMap(ctx, dest, m, staged, file)
}
