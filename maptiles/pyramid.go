package maptiles

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// A pyramid of levels cut from rows: level 0 is the picture at full
// size, each next level half the one before (2 x 2 pixels averaged),
// down to the first that fits one tile. Each level keeps one band of
// TileSize rows; when the band is full (or the picture ends) it is cut
// into tiles and written. Memory is about twice a band of level 0:
// width x TileSize x 4 bytes, x 2.

// pyramid receives level 0's rows in order.
type pyramid struct {
	levels []*level
	dir    string
	format string // "png" or "jpeg"
	// encoders, one for each core that encodes a band's tiles.
	encoders []*tileEncoder
}

// encoderBuffers is a png.EncoderBufferPool of one: a tileEncoder
// encodes one tile at a time.
type encoderBuffers struct{ b *png.EncoderBuffer }

func (e *encoderBuffers) Get() *png.EncoderBuffer  { return e.b }
func (e *encoderBuffers) Put(b *png.EncoderBuffer) { e.b = b }

type level struct {
	index      int
	w, h       int
	band       *image.RGBA // TileSize rows of w pixels
	rows       int         // rows in the band
	bandY      int         // the band's first row (in tile rows)
	pair       []byte      // a row waiting for its partner, to halve into the next level
	paired     bool
	half       []byte // the halved row given to the next level (reused)
	next       *level
	written    int
	writeTiles func(l *level) error
}

// levelsFor is how many levels a picture of w x h needs: halving until it
// fits one tile.
func levelsFor(w, h int) int {
	n := 1
	for w > TileSize || h > TileSize {
		w, h = (w+1)/2, (h+1)/2
		n++
	}
	return n
}

func newPyramid(w, h int, dir, format string) *pyramid {
	p := &pyramid{dir: dir, format: format}
	for range max(1, runtime.GOMAXPROCS(0)) {
		p.encoders = append(p.encoders, newTileEncoder())
	}
	n := levelsFor(w, h)
	var prev *level
	for i := 0; i < n; i++ {
		l := &level{index: i, w: w, h: h, band: image.NewRGBA(image.Rect(0, 0, w, min(h, TileSize))), pair: make([]byte, 4*w)}
		l.writeTiles = p.writeBand
		if prev != nil {
			prev.next = l
		}
		p.levels = append(p.levels, l)
		prev = l
		w, h = (w+1)/2, (h+1)/2
	}
	return p
}

// add takes level 0's next row (4*w bytes of premultiplied RGBA).
func (p *pyramid) add(row []byte) error { return p.levels[0].add(row) }

func (l *level) add(row []byte) error {
	copy(l.band.Pix[l.rows*l.band.Stride:], row[:4*l.w])
	l.rows++
	y := l.bandY*TileSize + l.rows // rows received so far
	if l.rows == TileSize || y == l.h {
		if err := l.writeTiles(l); err != nil {
			return err
		}
		l.bandY++
		l.rows = 0
	}
	if l.next == nil {
		return nil
	}
	if !l.paired {
		copy(l.pair, row[:4*l.w])
		l.paired = true
		if y == l.h { // an odd last row pairs with itself
			return l.next.add(l.halve(l.pair, l.pair))
		}
		return nil
	}
	l.paired = false
	return l.next.add(l.halve(l.pair, row))
}

// halve averages two rows into one of half the width (rounded up; an odd
// last column is averaged with itself). Premultiplied colour averages
// correctly through transparency.
func (l *level) halve(a, b []byte) []byte {
	nw := l.next.w
	if l.half == nil {
		l.half = make([]byte, 4*nw)
	}
	out := l.half
	for x := 0; x < nw; x++ {
		x0, x1 := 2*x, min(2*x+1, l.w-1)
		for c := 0; c < 4; c++ {
			s := uint32(a[4*x0+c]) + uint32(a[4*x1+c]) + uint32(b[4*x0+c]) + uint32(b[4*x1+c])
			out[4*x+c] = uint8((s + 2) / 4)
		}
	}
	return out
}

// writeBand cuts a level's full band into its tiles, encoding them on
// every core: encoding is most of a cut's time (a PNG encoder tries five
// filters on every row).
func (p *pyramid) writeBand(l *level) error {
	dir := filepath.Join(p.dir, fmt.Sprint(l.index))
	if l.bandY == 0 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	cols := (l.w + TileSize - 1) / TileSize
	workers := min(cols, len(p.encoders))
	errs := make([]error, cols)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(enc *tileEncoder) {
			defer wg.Done()
			for tx := w; tx < cols; tx += workers {
				r := image.Rect(tx*TileSize, 0, min(l.w, (tx+1)*TileSize), l.rows)
				data, err := enc.encode(l.band.SubImage(r).(*image.RGBA), p.format)
				if err == nil {
					err = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d_%d", tx, l.bandY)), data, 0o644)
				}
				errs[tx] = err
			}
		}(p.encoders[w])
	}
	wg.Wait()
	l.written += cols
	return errors.Join(errs...)
}

// tileEncoder encodes tiles one at a time, reusing its buffers: garbage
// would count against the memory a cut holds.
type tileEncoder struct {
	png png.Encoder
	buf bytes.Buffer
}

func newTileEncoder() *tileEncoder {
	return &tileEncoder{png: png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderBuffers{}}}
}

func (e *tileEncoder) encode(tile *image.RGBA, format string) ([]byte, error) {
	e.buf.Reset()
	var err error
	if format == "jpeg" {
		err = jpeg.Encode(&e.buf, tile, &jpeg.Options{Quality: jpegQuality})
	} else {
		err = e.png.Encode(&e.buf, tile)
	}
	return e.buf.Bytes(), err
}

// jpegQuality keeps a battle map's lines sharp; tiles of a JPEG picture
// are JPEGs again, so a second loss at this quality is hard to see.
const jpegQuality = 90
