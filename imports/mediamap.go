package imports

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/media"
	"github.com/vttapp/companion/imports/uvtt"
)

// Images and videos as maps: a PNG, JPEG, WebP or GIF image, or an MP4 or
// WebM video, offered, handed over or uploaded, becomes a map of the
// destination (default: the primary campaign) the size of the picture,
// read from the file's header. Its grid is not known, so the map waits for
// it (core.Map.GridPending) and stays off the player screen until the game
// master sets it on the host console.

// mediaExtensions are the names a picture may carry; a map named after
// its file drops them.
var mediaExtensions = []string{".png", ".jpg", ".jpeg", ".jfif", ".webp", ".gif", ".mp4", ".m4v", ".mov", ".webm"}

// installMediaMap files the image or video f (size bytes, recognised by
// media.Sniff) as a map waiting for its grid.
func (in *Installer) installMediaMap(ctx context.Context, f *os.File, size int64, format media.Format, name string, opt InstallOptions) (Result, error) {
	if opt.Expect != "" {
		what := "an image"
		if format.Kind == media.Video {
			what = "a video"
		}
		return Result{}, core.Invalidf("the package says it is a %s, but the download is %s (%s)", opt.Expect, what, format.Name)
	}
	info, err := media.Probe(f, size)
	if err != nil {
		return Result{}, core.Invalidf("'%s' cannot be used as a map: %v", core.Clip(filepath.Base(name)), err)
	}
	if limit := in.site.Limits.MaxImageSide; info.Width > limit || info.Height > limit {
		return Result{}, core.TooLargef("'%s' is %d x %d pixels; a map %s may be at most %d pixels a side (what the players' browsers can draw)",
			core.Clip(filepath.Base(name)), info.Width, info.Height, info.Kind, limit)
	}
	dest, err := in.site.Destination(ctx, opt.Destination)
	if err != nil {
		return Result{}, err
	}
	m := &core.Map{Name: mapName(name), Width: info.Width, Height: info.Height, GridPending: true,
		GridVisible: true, GridOpacity: 0.5, LosVisionLimit: -1, LosDaylight: 1}
	if err := m.Normalize(); err != nil {
		return Result{}, err
	}
	m.Owner = dest.ID
	file := m.ID + info.Ext
	_, prefix := in.site.OwnerFolder(dest.Kind, dest.ID)
	if info.Kind == media.Video {
		m.Video = prefix + "/maps/" + file
	} else {
		m.Image = prefix + "/maps/" + file
	}
	stage, err := in.site.NewStage()
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(stage)
	staged := filepath.Join(stage, file)
	if err := copyFileFrom(f, staged); err != nil {
		return Result{}, core.Internal(err)
	}
	res, err := in.placeMap(ctx, dest, m, staged, file)
	res.GridPending = err == nil
	return res, err
}

// copyFileFrom copies f from its start into a new file at path, streamed.
func copyFileFrom(f *os.File, path string) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, f); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// placeMap writes the map m into the destination in one transaction, then
// moves its staged file into the destination's maps/ folder as file (or
// takes the map back when it cannot).
func (in *Installer) placeMap(ctx context.Context, dest Result, m *core.Map, staged, file string) (Result, error) {
	res := Result{Kind: KindMap, ID: m.ID, Name: m.Name}
	if err := in.site.Service.ChangeContent(ctx, func(tx core.Tx) (core.Object, error) {
		if err := dest.Check(tx); err != nil {
			return nil, err
		}
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		return content.ReloadData(res), nil
	}); err != nil {
		return Result{}, err
	}
	dir, _ := in.site.OwnerFolder(dest.Kind, dest.ID)
	target := filepath.Join(dir, "maps", file)
	err := os.MkdirAll(filepath.Dir(target), 0o755)
	if err == nil {
		err = os.Rename(staged, target)
	}
	if err != nil {
		_ = in.site.Service.ChangeContent(context.WithoutCancel(ctx), func(tx core.Tx) (core.Object, error) { return nil, tx.DeleteMap(m.ID) })
		return Result{}, core.Internal(err)
	}
	return res, nil
}

// mapName is a file name without its folder and extension.
func mapName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	lower := strings.ToLower(name)
	for _, ext := range append(uvtt.Extensions, mediaExtensions...) {
		if strings.HasSuffix(lower, ext) {
			name = name[:len(name)-len(ext)]
			break
		}
	}
	if strings.TrimSpace(name) == "" {
		return "Imported map"
	}
	return name
}
