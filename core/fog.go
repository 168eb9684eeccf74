package core

import "math"

// Fog of war as the game master paints it: the edits the host console
// sends and the payload clients receive. The mask they paint, a raster
// over the map and its PNG, is the fog package's.

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

// FogImage is the fogUpdated payload: the map and its mask as base64 PNG,
// as the real web client reads it.
type FogImage struct {
	ID    string `json:"id"`
	Image string `json:"image"`
}
