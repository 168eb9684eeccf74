package uvtt

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/vttapp/companion/core"
)

// A map written as a Universal VTT file (format 0.3), for the map makers
// and other table tools that read one: Parse's reading turned round.
// Geometry is in grid cells from the map's top left; walls that block
// sight are line_of_sight, doors and windows portals (a door closed or
// locked, or a secret door, is a closed portal; an open door or a window
// an open one); walls that block nothing the format can say (invisible
// and terrain walls) are left out. Lights keep their position, colour and
// reach (radiusMax in feet, 5 to a cell, as Parse reads them).

// uvttFeetPerCell is the grid's scale UVTT lights are read and written at.
const uvttFeetPerCell = 5

// Write writes m as a Universal VTT file, with picture (the map's
// image, nil for none) in base64. The picture is streamed: a big map's
// file is never held whole.
func Write(w io.Writer, m *core.Map, picture io.Reader) error {
	grid := float64(m.GridSize)
	if grid <= 0 {
		grid = 50
	}
	cell := func(x, y float64) uvttPoint { return uvttPoint{X: round4(x / grid), Y: round4(y / grid)} }
	head := struct {
		Format             float64         `json:"format"`
		Resolution         uvttResolution  `json:"resolution"`
		LineOfSight        [][]uvttPoint   `json:"line_of_sight"`
		ObjectsLineOfSight [][]uvttPoint   `json:"objects_line_of_sight"`
		Portals            []uvttPortal    `json:"portals"`
		Environment        uvttEnvironment `json:"environment"`
		Lights             []uvttLight     `json:"lights"`
	}{Format: 0.3, LineOfSight: [][]uvttPoint{}, ObjectsLineOfSight: [][]uvttPoint{}, Portals: []uvttPortal{}, Lights: []uvttLight{}}
	head.Resolution.MapSize = uvttPoint{X: round4(float64(m.Width) / grid), Y: round4(float64(m.Height) / grid)}
	head.Resolution.PixelsPerGrid = grid
	for _, wall := range m.Walls {
		pts := make([]uvttPoint, 0, len(wall.Data)/2)
		for i := 0; i+1 < len(wall.Data); i += 2 {
			pts = append(pts, cell(wall.Data[i], wall.Data[i+1]))
		}
		if len(pts) < 2 {
			continue
		}
		switch {
		case wall.IsDoor() || wall.Type == core.WallWindow:
			// One portal for each segment: a portal is a straight opening.
			for i := 0; i+1 < len(pts); i++ {
				head.Portals = append(head.Portals, portalBetween(pts[i], pts[i+1], wall.Type != core.WallWindow && wall.Door != core.DoorOpen))
			}
		case wall.Type == core.WallInvisible || wall.Type == core.WallTerrain:
		default:
			head.LineOfSight = append(head.LineOfSight, pts)
		}
	}
	for _, l := range m.Lights {
		head.Lights = append(head.Lights, uvttLight{
			Position: cell(l.X, l.Y), Range: round4(l.RadiusMax / uvttFeetPerCell),
			Intensity: l.Opacity, Color: "ff" + strings.TrimPrefix(normalColour(l.Color), "#"), Shadows: true,
		})
	}
	level := uint8(math.Round(math.Max(0, math.Min(1, m.LosDaylight)) * 255))
	head.Environment.AmbientLight = fmt.Sprintf("ff%02x%02x%02x", level, level, level)

	fields, err := json.Marshal(head)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	// The fields, then "image": the picture's base64, streamed.
	bw.Write(fields[:len(fields)-1])
	bw.WriteString(`,"image":"`)
	if picture != nil {
		enc := base64.NewEncoder(base64.StdEncoding, bw)
		if _, err := io.Copy(enc, picture); err != nil {
			return err
		}
		if err := enc.Close(); err != nil {
			return err
		}
	}
	bw.WriteString(`"}`)
	return bw.Flush()
}

func portalBetween(a, b uvttPoint, closed bool) uvttPortal {
	return uvttPortal{
		Position: uvttPoint{X: round4((a.X + b.X) / 2), Y: round4((a.Y + b.Y) / 2)},
		Bounds:   []uvttPoint{a, b},
		Rotation: round4(math.Atan2(b.Y-a.Y, b.X-a.X)),
		Closed:   closed,
	}
}

// normalColour is a light's colour as #rrggbb (white when it is not one).
func normalColour(c string) string {
	c = strings.ToLower(strings.TrimSpace(c))
	if len(c) == 7 && c[0] == '#' && strings.Trim(c[1:], "0123456789abcdef") == "" {
		return c
	}
	return "#ffffff"
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
