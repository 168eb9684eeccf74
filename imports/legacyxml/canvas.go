package legacyxml

import (
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadCanvasWalls reads the walls of a map's canvas: the SVG in which the
// original application kept a map's drawings, each path on a layer named
// by its class (dm, object, token, map, wall). Paths of class "wall" are
// walls; each subpath becomes one Wall of type "normal" with the path's
// stroke colour. Curves are followed through their end points only (the
// application draws walls as straight segments).
func ReadCanvasWalls(r io.Reader, file string, lim Limits) ([]Wall, error) {
	c, err := ReadCanvas(r, file, lim)
	if err != nil {
		return nil, err
	}
	return c.Walls, nil
}

// Canvas is what a map's canvas holds: its walls, and its other paths as
// drawings on the layer their class names (dm, object, token, map; object
// when it names none). Skipped counts the drawing paths whose data could
// not be read: a wall's is an error (a wall left out would let players
// see through it), a drawing's is only decoration, left out and counted.
type Canvas struct {
	Walls    []Wall
	Drawings []Drawing
	Skipped  int
}

// ReadCanvas reads a map's canvas SVG (see ReadCanvasWalls).
func ReadCanvas(r io.Reader, file string, lim Limits) (*Canvas, error) {
	root, err := ReadDocument(r, file, lim)
	if err != nil {
		return nil, err
	}
	if root.Name != "svg" {
		return nil, &Error{File: file, Line: root.Line, Msg: "the root element is <" + root.Name + ">, not <svg>"}
	}
	out := &Canvas{}
	var walk func(el *Element) error
	walk = func(el *Element) error {
		for _, c := range el.Children {
			if c.Name == "path" {
				class := c.Attr("class")
				polylines, err := pathPolylines(c.Attr("d"))
				switch {
				case err != nil && hasClass(class, "wall"):
					return Errorf(file, c, "the wall's path: %s", err.Error())
				case err != nil:
					out.Skipped++
					polylines = nil
				}
				for _, pts := range polylines {
					if len(pts) < 4 {
						continue
					}
					if hasClass(class, "wall") {
						out.Walls = append(out.Walls, Wall{Points: pts, Type: "normal", Color: c.Attr("stroke")})
						continue
					}
					out.Drawings = append(out.Drawings, canvasDrawing(c, class, pts))
				}
			}
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	return out, nil
}

// canvasDrawing is a non-wall path of a canvas as a drawing.
func canvasDrawing(c *Element, class string, pts []float64) Drawing {
	d := Drawing{Layer: "object", Shape: "polygon", StrokeColor: c.Attr("stroke"), Points: pts}
	for _, layer := range []string{"dm", "object", "token", "map"} {
		if hasClass(class, layer) {
			d.Layer = layer
		}
	}
	if f, err := strconv.ParseFloat(c.Attr("stroke-width"), 64); err == nil && f >= 0 && f < 1e6 {
		d.StrokeWidth = f
	}
	if f, err := strconv.ParseFloat(c.Attr("stroke-opacity"), 64); err == nil && f >= 0 && f <= 1 {
		d.Opacity = &f
	}
	if fill := c.Attr("fill"); fill != "" && fill != "none" {
		d.FillColor = fill
	}
	return d
}

func hasClass(attr, want string) bool {
	for _, c := range strings.Fields(attr) {
		if c == want {
			return true
		}
	}
	return false
}

type pathError string

func (e pathError) Error() string { return string(e) }

// pathPolylines turns SVG path data into polylines (x,y pairs), one per
// subpath.
func pathPolylines(d string) ([][]float64, error) {
	var out [][]float64
	var cur []float64
	var x, y, startX, startY float64
	var cmd byte
	s := d
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	point := func(px, py float64) {
		x, y = px, py
		cur = append(cur, px, py)
	}
	for {
		s = strings.TrimLeft(s, " \t\r\n,")
		if s == "" {
			break
		}
		if c := s[0]; (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') {
			cmd = c
			s = s[1:]
			if cmd == 'Z' || cmd == 'z' {
				if len(cur) > 0 {
					point(startX, startY)
				}
				flush()
			}
			continue
		}
		args, n := 0, 0
		switch cmd {
		case 'M', 'm', 'L', 'l', 'T', 't':
			args = 2
		case 'H', 'h', 'V', 'v':
			args = 1
		case 'S', 's', 'Q', 'q':
			args = 4
		case 'C', 'c':
			args = 6
		case 'A', 'a':
			args = 7
		default:
			return nil, pathError("a number before any command")
		}
		nums := make([]float64, args)
		for n = 0; n < args; n++ {
			s = strings.TrimLeft(s, " \t\r\n,")
			f, rest, ok := leadingNumber(s)
			if !ok {
				return nil, pathError("command " + string(cmd) + " lacks its numbers")
			}
			nums[n], s = f, rest
		}
		rel := cmd >= 'a'
		var nx, ny float64
		switch cmd {
		case 'H', 'h':
			nx, ny = nums[0], y
			if rel {
				nx += x
			}
		case 'V', 'v':
			nx, ny = x, nums[0]
			if rel {
				ny += y
			}
		default:
			nx, ny = nums[args-2], nums[args-1]
			if rel {
				nx, ny = nx+x, ny+y
			}
		}
		switch cmd {
		case 'M', 'm':
			flush()
			startX, startY = nx, ny
			point(nx, ny)
			// Further pairs after a moveto are linetos.
			if cmd == 'M' {
				cmd = 'L'
			} else {
				cmd = 'l'
			}
		default:
			if len(cur) == 0 {
				cur = append(cur, x, y)
			}
			point(nx, ny)
		}
	}
	flush()
	return out, nil
}

// leadingNumber reads the number at the start of s.
func leadingNumber(s string) (float64, string, bool) {
	end := 0
	for end < len(s) {
		c := s[end]
		if (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' ||
			((c == '-' || c == '+') && (end == 0 || s[end-1] == 'e' || s[end-1] == 'E')) {
			end++
			continue
		}
		break
	}
	if end == 0 {
		return 0, s, false
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, s, false
	}
	return f, s[end:], true
}
