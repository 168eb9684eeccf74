// Package fog is the game master's fog of war as a raster: a mask over a
// map, white where the players may see and black where fog covers it, as
// the players' client reads a map's fog image (white and opaque is
// revealed); the edits the host console paints on it (core.FogEdit), and
// its PNG, which the data folder keeps and fogUpdated carries as base64.
// The mask is coarse on purpose: CellsPerGrid pixels along a grid cell is
// finer than any brush a game master uses, and keeps the PNG small enough
// to broadcast. The core knows the edits and the payload, not the image.
package fog

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"github.com/vttapp/companion/core"
)

// CellsPerGrid is the mask's resolution: pixels along one grid cell.
const CellsPerGrid = 4

// maxSide bounds the mask's width and height; a larger map gets a
// coarser mask.
const maxSide = 4096

// Mask is a map's fog raster and the scale from map pixels to it.
type Mask struct {
	Image  *image.Gray
	sx, sy float64 // mask pixels per map pixel
}

// New returns a fully covered mask for a map.
func New(m *core.Map) (*Mask, error) {
	if m.Width <= 0 || m.Height <= 0 {
		return nil, core.Invalidf("fog: map '%s' has no size (width and height): set them before painting fog", core.Clip(m.Name))
	}
	cell := float64(max(m.GridSize, 1)) / CellsPerGrid
	w := int(math.Ceil(float64(m.Width) / cell))
	h := int(math.Ceil(float64(m.Height) / cell))
	if side := max(w, h); side > maxSide {
		k := float64(maxSide) / float64(side)
		w, h = max(1, int(float64(w)*k)), max(1, int(float64(h)*k))
	}
	return maskOf(image.NewGray(image.Rect(0, 0, max(w, 1), max(h, 1))), m), nil
}

func maskOf(img *image.Gray, m *core.Map) *Mask {
	b := img.Bounds()
	return &Mask{Image: img, sx: float64(b.Dx()) / float64(m.Width), sy: float64(b.Dy()) / float64(m.Height)}
}

// Decode reads a stored mask (any PNG) for a map, at its own size.
func Decode(data []byte, m *core.Map) (*Mask, error) {
	if m.Width <= 0 || m.Height <= 0 {
		return nil, core.Invalidf("fog: map '%s' has no size (width and height)", core.Clip(m.Name))
	}
	// The size first, from the header: a forged PNG must not make us
	// allocate its claimed size before we refuse it.
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, core.Invalidf("fog: the stored mask is not a PNG: %v", err)
	}
	if cfg.Width > maxSide || cfg.Height > maxSide || cfg.Width == 0 || cfg.Height == 0 {
		return nil, core.Invalidf("fog: the stored mask is %dx%d, outside 1..%d", cfg.Width, cfg.Height, maxSide)
	}
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, core.Invalidf("fog: the stored mask is not a PNG: %v", err)
	}
	b := src.Bounds()
	gray := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(gray, gray.Bounds(), src, b.Min, draw.Src)
	return maskOf(gray, m), nil
}

// Apply paints one edit onto the mask.
func (f *Mask) Apply(e core.FogEdit) error {
	if err := e.Check(); err != nil {
		return err
	}
	v := color.Gray{Y: 0}
	if e.Mode == core.FogReveal {
		v = color.Gray{Y: 255}
	}
	b := f.Image.Bounds()
	switch e.Shape {
	case core.FogAll:
		draw.Draw(f.Image, b, &image.Uniform{C: v}, image.Point{}, draw.Src)
	case core.FogRect:
		r := image.Rect(int(math.Floor(e.X*f.sx)), int(math.Floor(e.Y*f.sy)),
			int(math.Ceil((e.X+e.Width)*f.sx)), int(math.Ceil((e.Y+e.Height)*f.sy))).Intersect(b)
		draw.Draw(f.Image, r, &image.Uniform{C: v}, image.Point{}, draw.Src)
	case core.FogBrush:
		return f.brush(e.Path, e.Radius, v.Y)
	}
	return nil
}

// maxBrushWork bounds the mask pixels one brush stroke may visit (each
// segment visits the box around it, clipped to the mask): about a tenth of
// a second of work. A real stroke visits a few thousand; without a bound a
// huge radius on a long path made one request paint for many minutes.
const maxBrushWork = 64 << 20

// brush sets every mask pixel whose centre lies within radius of the path
// (a circle dragged along it), in map pixels. A stroke that would visit
// more than maxBrushWork pixels is refused before anything is painted.
func (f *Mask) brush(path []float64, radius float64, v uint8) error {
	work := 0
	for i := 0; i+1 < len(path); i += 2 {
		x0, y0, x1, y1 := f.segmentBox(path, i, radius)
		if x1 > x0 && y1 > y0 {
			work += (x1 - x0) * (y1 - y0)
		}
		if work > maxBrushWork {
			return core.TooLargef("fog: this brush stroke would paint more than %d mask pixels; use a smaller radius, a shorter path, or a rect", maxBrushWork)
		}
	}
	b := f.Image.Bounds()
	for i := 0; i+1 < len(path); i += 2 {
		ax, ay := path[i], path[i+1]
		bx, by := ax, ay
		if i+3 < len(path) {
			bx, by = path[i+2], path[i+3]
		}
		x0, y0, x1, y1 := f.segmentBox(path, i, radius)
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				px, py := (float64(x)+0.5)/f.sx, (float64(y)+0.5)/f.sy // the pixel's centre, in map pixels
				if segmentDistance(px, py, ax, ay, bx, by) <= radius {
					f.Image.Pix[(y-b.Min.Y)*f.Image.Stride+(x-b.Min.X)] = v
				}
			}
		}
	}
	return nil
}

// segmentBox is the mask box (clipped to the mask) that the brush segment
// starting at path[i] can paint.
func (f *Mask) segmentBox(path []float64, i int, radius float64) (x0, y0, x1, y1 int) {
	b := f.Image.Bounds()
	ax, ay := path[i], path[i+1]
	bx, by := ax, ay
	if i+3 < len(path) {
		bx, by = path[i+2], path[i+3]
	}
	// Clamp in float before converting: a radius of 1e12 must not overflow int.
	clamp := func(v float64, lo, hi int) int { return int(math.Max(float64(lo), math.Min(float64(hi), v))) }
	x0 = clamp(math.Floor((math.Min(ax, bx)-radius)*f.sx), b.Min.X, b.Max.X)
	x1 = clamp(math.Ceil((math.Max(ax, bx)+radius)*f.sx), b.Min.X, b.Max.X)
	y0 = clamp(math.Floor((math.Min(ay, by)-radius)*f.sy), b.Min.Y, b.Max.Y)
	y1 = clamp(math.Ceil((math.Max(ay, by)+radius)*f.sy), b.Min.Y, b.Max.Y)
	return x0, y0, x1, y1
}

func segmentDistance(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/l))
	}
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
}

// PNG encodes the mask.
func (f *Mask) PNG() ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, f.Image); err != nil {
		return nil, core.Internal(err)
	}
	return b.Bytes(), nil
}

// Revealed reports whether the map pixel (x, y) is revealed.
func (f *Mask) Revealed(x, y float64) bool {
	px, py := int(x*f.sx), int(y*f.sy)
	if !(image.Point{X: px, Y: py}).In(f.Image.Bounds()) {
		return false
	}
	return f.Image.GrayAt(px, py).Y > 127
}
