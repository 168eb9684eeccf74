// Package maptiles cuts a big map picture into tiles, once, and keeps
// them in the data folder: phones cannot hold a texture past 4,096 (many
// past 8,192) pixels a side, and battle maps are often 8,000 to 16,000.
// A client that finds the picture too big for its device asks for the
// picture's index and draws the tiles of the level its zoom needs, in
// view: full detail at zoom 1, small tiles when zoomed out.
//
// Tiles are cut on first request and kept under <data>/.tiles, one
// folder per picture and version (the picture's size and time: a picture
// replaced under the same name is cut again). A folder is complete or
// absent: it is written under a temporary name and renamed. PNG pictures
// are read one row at a time (pngrows.go), so memory follows a band of
// rows, not the picture; other formats are decoded whole, within a pixel
// limit. Tiles of a JPEG picture are JPEGs, of any other PNGs.
package maptiles

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/gif" // decoded whole, as pictures other than PNG are
	_ "image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// TileSize is a tile's side in pixels: 512 keeps a phone's screen at
// zoom 1 to about a dozen tiles, and a band of rows of a 16,000-pixel
// picture to 32 MB.
const TileSize = 512

// Limits of what is cut (docs/limits.md).
const (
	// MaxSide is the longest side read a row at a time (PNG).
	MaxSide = 32768
	// MaxDecodedPixels bounds a picture decoded whole (JPEG, GIF,
	// interlaced PNG): 150 million pixels (a 12,000-pixel square) takes
	// about 600 MB while it is cut.
	MaxDecodedPixels = 150_000_000
)

// Index describes a picture's tiles: level L is the picture halved L
// times, its tiles named X_Y from the top left, TileSize a side (the last
// of a row or column smaller).
type Index struct {
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Tile    int    `json:"tile"`
	Levels  int    `json:"levels"`
	Format  string `json:"format"`  // "png" or "jpeg"
	Version string `json:"version"` // changes when the picture does
}

// ErrNotTiled: the picture cannot be cut (not a picture, too big, broken).
var ErrNotTiled = errors.New("the picture cannot be cut into tiles")

// Cache cuts pictures and finds their tiles.
type Cache struct {
	dir string

	mu       sync.Mutex
	inflight map[string]*cut
	// one cut at a time: each holds a band of rows (or a whole picture).
	slot chan struct{}
}

type cut struct {
	done chan struct{}
	idx  Index
	err  error
}

// New returns a cache keeping its tiles in dir.
func New(dir string) *Cache {
	return &Cache{dir: dir, inflight: map[string]*cut{}, slot: make(chan struct{}, 1)}
}

// Opener opens the picture (the caller confines it to its folder).
type Opener func() (*os.File, error)

// Index returns the index of the picture open opens, known to clients as
// urlPath, cutting it first when it has not been (a caller waits for
// the cut, or for ctx; the cut goes on for the next caller).
func (c *Cache) Index(ctx context.Context, open Opener, urlPath string) (Index, error) {
	f, err := open()
	if err != nil {
		return Index{}, ErrNotTiled
	}
	info, err := f.Stat()
	f.Close()
	if err != nil || !info.Mode().IsRegular() {
		return Index{}, ErrNotTiled
	}
	version := versionOf(info)
	folder := c.folder(urlPath, version)
	if idx, err := readIndex(folder); err == nil {
		return idx, nil
	}
	c.mu.Lock()
	job, running := c.inflight[folder]
	if !running {
		job = &cut{done: make(chan struct{})}
		c.inflight[folder] = job
		go c.run(job, open, folder, version)
	}
	c.mu.Unlock()
	select {
	case <-job.done:
		return job.idx, job.err
	case <-ctx.Done():
		return Index{}, ctx.Err()
	}
}

// Tile returns the file of one tile of a picture whose index is idx.
func (c *Cache) Tile(urlPath string, idx Index, level, x, y int) (string, error) {
	if level < 0 || level >= idx.Levels || x < 0 || y < 0 {
		return "", ErrNotTiled
	}
	w, h := idx.Width, idx.Height
	for i := 0; i < level; i++ {
		w, h = (w+1)/2, (h+1)/2
	}
	if x*TileSize >= w || y*TileSize >= h {
		return "", ErrNotTiled
	}
	return filepath.Join(c.folder(urlPath, idx.Version), strconv.Itoa(level), fmt.Sprintf("%d_%d", x, y)), nil
}

func (c *Cache) folder(urlPath, version string) string {
	sum := sha256.Sum256([]byte(urlPath))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:10])+"-"+version)
}

func versionOf(info os.FileInfo) string {
	sum := sha256.Sum256([]byte(strconv.FormatInt(info.ModTime().UnixNano(), 36) + "/" + strconv.FormatInt(info.Size(), 36)))
	return hex.EncodeToString(sum[:6])
}

func readIndex(folder string) (Index, error) {
	b, err := os.ReadFile(filepath.Join(folder, "index.json"))
	if err != nil {
		return Index{}, err
	}
	var idx Index
	err = json.Unmarshal(b, &idx)
	return idx, err
}

func (c *Cache) run(job *cut, open Opener, folder, version string) {
	c.slot <- struct{}{}
	defer func() {
		<-c.slot
		c.mu.Lock()
		delete(c.inflight, folder)
		c.mu.Unlock()
		close(job.done)
	}()
	if idx, err := readIndex(folder); err == nil { // cut while this one waited
		job.idx = idx
		return
	}
	idx, err := cutFile(open, folder, version)
	if err != nil {
		job.err = fmt.Errorf("%w: %v", ErrNotTiled, err)
		return
	}
	job.idx = idx
}

// cutFile cuts the picture into folder (written under a temporary name first).
func cutFile(open Opener, folder, version string) (Index, error) {
	if err := os.MkdirAll(filepath.Dir(folder), 0o755); err != nil {
		return Index{}, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(folder), ".cutting-")
	if err != nil {
		return Index{}, err
	}
	defer os.RemoveAll(tmp) // gone after the rename; left by a failure
	f, err := open()
	if err != nil {
		return Index{}, err
	}
	defer f.Close()
	idx, err := cutPicture(f, tmp)
	if err != nil {
		return Index{}, err
	}
	idx.Version = version
	b, _ := json.Marshal(idx)
	if err := os.WriteFile(filepath.Join(tmp, "index.json"), b, 0o644); err != nil {
		return Index{}, err
	}
	if err := os.Rename(tmp, folder); err != nil {
		if idx2, err2 := readIndex(folder); err2 == nil {
			return idx2, nil // another process cut it meanwhile
		}
		return Index{}, err
	}
	return idx, nil
}

// cutPicture writes the tiles of the picture read from f into dir.
func cutPicture(f io.ReadSeeker, dir string) (Index, error) {
	if rows, err := openPNG(f, MaxSide); err == nil {
		p := newPyramid(rows.width, rows.height, dir, "png")
		row := make([]byte, 4*rows.width)
		for y := 0; y < rows.height; y++ {
			if err := rows.next(row); err != nil {
				return Index{}, err
			}
			if err := p.add(row); err != nil {
				return Index{}, err
			}
		}
		return Index{Width: rows.width, Height: rows.height, Tile: TileSize, Levels: len(p.levels), Format: "png"}, nil
	} else if !errors.Is(err, errInterlaced) && !errors.Is(err, errNotPNG) {
		return Index{}, err
	}
	// Decoded whole: check the size before the pixels are read.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Index{}, err
	}
	cfg, format, err := image.DecodeConfig(f)
	if err != nil {
		return Index{}, errors.New("not a picture this server reads (PNG, JPEG or GIF)")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxSide || cfg.Height > MaxSide || cfg.Width*cfg.Height > MaxDecodedPixels {
		return Index{}, fmt.Errorf("a %s of %d x %d pixels: at most %d pixels are cut from a picture read whole", format, cfg.Width, cfg.Height, MaxDecodedPixels)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Index{}, err
	}
	img, _, err := image.Decode(f)
	if err != nil {
		return Index{}, err
	}
	b := img.Bounds()
	tiles := "png"
	if format == "jpeg" {
		tiles = "jpeg"
	}
	p := newPyramid(b.Dx(), b.Dy(), dir, tiles)
	line := image.NewRGBA(image.Rect(0, 0, b.Dx(), 1))
	for y := 0; y < b.Dy(); y++ {
		draw.Draw(line, line.Rect, img, image.Pt(b.Min.X, b.Min.Y+y), draw.Src)
		if err := p.add(line.Pix); err != nil {
			return Index{}, err
		}
	}
	return Index{Width: b.Dx(), Height: b.Dy(), Tile: TileSize, Levels: len(p.levels), Format: tiles}, nil
}
