package core

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
)

// Fog of war as the game master paints it: a raster mask over the map,
// white where the players may see, black where fog covers it, as the
// players' client reads a map's fog image (white and opaque is revealed).
// The mask is coarse on purpose: FogCellsPerGrid pixels along a grid cell
// is finer than any brush a game master uses, and keeps the PNG small
// enough to broadcast (fogUpdated carries it as base64).

// FogCellsPerGrid is the mask's resolution: pixels along one grid cell.
const FogCellsPerGrid = 4

// maxFogSide bounds the mask's width and height; a larger map gets a
// coarser mask.
const maxFogSide = 4096

// maxFogPath bounds the points of one brush stroke.
const maxFogPath = 20000

// Fog modes and shapes of a FogEdit.
const (
	FogReveal = "reveal"
	FogCover  = "cover"
	FogRect   = "rect"
	FogBrush  = "brush"
	FogAll    = "all"
)

// FogEdit is one stroke of the game master's fog brush: reveal or cover a
// rectangle (x, y, width, height), a brush path ([x0, y0, x1, y1, ...]
// with its radius, a circle along the path), or the whole map. In map
// pixels.
type FogEdit struct {
	Mode   string    `json:"mode"`
	Shape  string    `json:"shape"`
	X      float64   `json:"x"`
	Y      float64   `json:"y"`
	Width  float64   `json:"width"`
	Height float64   `json:"height"`
	Path   []float64 `json:"path"`
	Radius float64   `json:"radius"`
}

// Check reports what is wrong with an edit, in words.
func (e FogEdit) Check() error {
	if e.Mode != FogReveal && e.Mode != FogCover {
		return Invalidf("fog: 'mode' must be reveal or cover, not '%s'", Clip(e.Mode))
	}
	for _, v := range append([]float64{e.X, e.Y, e.Width, e.Height, e.Radius}, e.Path...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Invalidf("fog: coordinates must be finite numbers")
		}
	}
	switch e.Shape {
	case FogAll:
	case FogRect:
		if e.Width <= 0 || e.Height <= 0 {
			return Invalidf("fog: a rect needs a positive 'width' and 'height'")
		}
	case FogBrush:
		if len(e.Path) < 2 || len(e.Path)%2 != 0 {
			return Invalidf("fog: a brush needs a 'path' of x, y pairs: [x0, y0, x1, y1, ...]")
		}
		if len(e.Path) > maxFogPath {
			return TooLargef("fog: a brush path has at most %d numbers, this one %d", maxFogPath, len(e.Path))
		}
		if e.Radius <= 0 {
			return Invalidf("fog: a brush needs a positive 'radius'")
		}
	default:
		return Invalidf("fog: 'shape' must be rect, brush or all, not '%s'", Clip(e.Shape))
	}
	return nil
}

// FogMask is a map's fog raster and the scale from map pixels to it.
type FogMask struct {
	Image  *image.Gray
	sx, sy float64 // mask pixels per map pixel
}

// NewFogMask returns a fully covered mask for a map.
func NewFogMask(m *Map) (*FogMask, error) {
	if m.Width <= 0 || m.Height <= 0 {
		return nil, Invalidf("fog: map '%s' has no size (width and height): set them before painting fog", Clip(m.Name))
	}
	cell := float64(max(m.GridSize, 1)) / FogCellsPerGrid
	w := int(math.Ceil(float64(m.Width) / cell))
	h := int(math.Ceil(float64(m.Height) / cell))
	if side := max(w, h); side > maxFogSide {
		k := float64(maxFogSide) / float64(side)
		w, h = max(1, int(float64(w)*k)), max(1, int(float64(h)*k))
	}
	return fogMaskOf(image.NewGray(image.Rect(0, 0, max(w, 1), max(h, 1))), m), nil
}

func fogMaskOf(img *image.Gray, m *Map) *FogMask {
	b := img.Bounds()
	return &FogMask{Image: img, sx: float64(b.Dx()) / float64(m.Width), sy: float64(b.Dy()) / float64(m.Height)}
}

// DecodeFogMask reads a stored mask (any PNG) for a map, at its own size.
func DecodeFogMask(data []byte, m *Map) (*FogMask, error) {
	if m.Width <= 0 || m.Height <= 0 {
		return nil, Invalidf("fog: map '%s' has no size (width and height)", Clip(m.Name))
	}
	// The size first, from the header: a forged PNG must not make us
	// allocate its claimed size before we refuse it.
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, Invalidf("fog: the stored mask is not a PNG: %v", err)
	}
	if cfg.Width > maxFogSide || cfg.Height > maxFogSide || cfg.Width == 0 || cfg.Height == 0 {
		return nil, Invalidf("fog: the stored mask is %dx%d, outside 1..%d", cfg.Width, cfg.Height, maxFogSide)
	}
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, Invalidf("fog: the stored mask is not a PNG: %v", err)
	}
	b := src.Bounds()
	gray := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(gray, gray.Bounds(), src, b.Min, draw.Src)
	return fogMaskOf(gray, m), nil
}

// Apply paints one edit onto the mask.
func (f *FogMask) Apply(e FogEdit) error {
	if err := e.Check(); err != nil {
		return err
	}
	v := color.Gray{Y: 0}
	if e.Mode == FogReveal {
		v = color.Gray{Y: 255}
	}
	b := f.Image.Bounds()
	switch e.Shape {
	case FogAll:
		draw.Draw(f.Image, b, &image.Uniform{C: v}, image.Point{}, draw.Src)
	case FogRect:
		r := image.Rect(int(math.Floor(e.X*f.sx)), int(math.Floor(e.Y*f.sy)),
			int(math.Ceil((e.X+e.Width)*f.sx)), int(math.Ceil((e.Y+e.Height)*f.sy))).Intersect(b)
		draw.Draw(f.Image, r, &image.Uniform{C: v}, image.Point{}, draw.Src)
	case FogBrush:
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
func (f *FogMask) brush(path []float64, radius float64, v uint8) error {
	work := 0
	for i := 0; i+1 < len(path); i += 2 {
		x0, y0, x1, y1 := f.segmentBox(path, i, radius)
		if x1 > x0 && y1 > y0 {
			work += (x1 - x0) * (y1 - y0)
		}
		if work > maxBrushWork {
			return TooLargef("fog: this brush stroke would paint more than %d mask pixels; use a smaller radius, a shorter path, or a rect", maxBrushWork)
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
func (f *FogMask) segmentBox(path []float64, i int, radius float64) (x0, y0, x1, y1 int) {
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
func (f *FogMask) PNG() ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, f.Image); err != nil {
		return nil, Internal(err)
	}
	return b.Bytes(), nil
}

// Revealed reports whether the map pixel (x, y) is revealed.
func (f *FogMask) Revealed(x, y float64) bool {
	px, py := int(x*f.sx), int(y*f.sy)
	if !(image.Point{X: px, Y: py}).In(f.Image.Bounds()) {
		return false
	}
	return f.Image.GrayAt(px, py).Y > 127
}

// FogImage is the fogUpdated payload: the map and its mask as base64 PNG,
// as the real web client reads it.
type FogImage struct {
	ID    string `json:"id"`
	Image string `json:"image"`
}
