// Package sight is the geometry of line of sight: the polygon a viewer
// sees among blocking wall segments (VisionPolygon, an angular sweep in
// polygon.go) and the Sight a client reads it as. It imports nothing of
// the project, like dice: walls arrive as bare segments and boxes, so the
// domain (core) decides whose sight is cast on which map and imports this
// package, never the reverse.
package sight

// Sight is the area a token's vision or a light reaches, as the real web
// client reads it: in a token's vision.sight, a light's sight and the
// array lineOfSightUpdated carries. Key names the source: "vision-<vision
// id>" or "light-<light id>". Polygon is a flat x,y list around (X, Y).
type Sight struct {
	Key     string    `json:"key"`
	X       float64   `json:"x"`
	Y       float64   `json:"y"`
	Polygon []float64 `json:"polygon"`
}

// VisionSightKey and LightSightKey are the keys of a Sight.
func VisionSightKey(visionID string) string { return "vision-" + visionID }

// LightSightKey is the key of a light's Sight.
func LightSightKey(lightID string) string { return "light-" + lightID }
