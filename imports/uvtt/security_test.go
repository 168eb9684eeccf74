package uvtt

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// Hostile Universal VTT files: refused with a clear error, or parsed into a
// map whose every number is finite and sensible (a NaN or an infinity would
// fail later when the map is stored or drawn).

// uvttRaw builds a document from raw JSON for the resolution, geometry and
// lights, so that numbers encoding/json would never write (1e999) can be
// used.
func uvttRaw(resolution, los, portals, lights string) []byte {
	img := base64.StdEncoding.EncodeToString([]byte(tinyPNG))
	return []byte(`{"format":0.3,"resolution":` + resolution + `,"line_of_sight":` + los +
		`,"portals":` + portals + `,"lights":` + lights + `,"image":"` + img + `"}`)
}

const okResolution = `{"map_origin":{"x":0,"y":0},"map_size":{"x":4,"y":3},"pixels_per_grid":100}`

func TestUVTTHostileNumbersNeverReachTheMap(t *testing.T) {
	for name, doc := range map[string][]byte{
		"huge coordinates":        uvttRaw(okResolution, `[[{"x":1e308,"y":1e308},{"x":-1e308,"y":-1e308}]]`, `[]`, `[]`),
		"overflowing coordinates": uvttRaw(okResolution, `[[{"x":1e999,"y":0},{"x":0,"y":1}]]`, `[]`, `[]`),
		"huge origin":             uvttRaw(`{"map_origin":{"x":1e308,"y":-1e308},"map_size":{"x":4,"y":3},"pixels_per_grid":100}`, `[[{"x":0,"y":0},{"x":4,"y":3}]]`, `[]`, `[]`),
		"huge portal":             uvttRaw(okResolution, `[]`, `[{"position":{"x":1,"y":1},"bounds":[{"x":-1e308,"y":1},{"x":1e308,"y":1}],"closed":true}]`, `[]`),
		"huge light range":        uvttRaw(okResolution, `[]`, `[]`, `[{"position":{"x":1,"y":1},"range":1e308,"intensity":1,"color":"ffffffff"}]`),
		"negative light range":    uvttRaw(okResolution, `[]`, `[]`, `[{"position":{"x":1,"y":1},"range":-5,"intensity":1,"color":"ffffffff"}]`),
		"huge light intensity":    uvttRaw(okResolution, `[]`, `[]`, `[{"position":{"x":1,"y":1},"range":2,"intensity":1e308,"color":"ffffffff"}]`),
		"tiny grid":               uvttRaw(`{"map_origin":{"x":0,"y":0},"map_size":{"x":4,"y":3},"pixels_per_grid":1e-300}`, `[[{"x":0,"y":0},{"x":4,"y":3}]]`, `[]`, `[]`),
		"tiny map":                uvttRaw(`{"map_origin":{"x":0,"y":0},"map_size":{"x":1e-300,"y":1e-300},"pixels_per_grid":100}`, `[]`, `[]`, `[]`),
	} {
		m, err := Parse(doc, "hostile.uvtt")
		if err != nil {
			if k := core.KindOf(err); k != core.KindInvalid && k != core.KindTooLarge {
				t.Errorf("%s: error of kind %s: %v", name, k, err)
			}
			continue
		}
		if bad := nonFinite(m.Map); bad != "" {
			t.Errorf("%s: map holds %s", name, bad)
		}
		if _, err := json.Marshal(m.Map); err != nil {
			t.Errorf("%s: the map cannot be stored: %v", name, err)
		}
		if m.Map.Width < 1 || m.Map.Height < 1 || m.Map.GridSize < 1 {
			t.Errorf("%s: map of %dx%d pixels with grid %d", name, m.Map.Width, m.Map.Height, m.Map.GridSize)
		}
		for _, l := range m.Map.Lights {
			if l.RadiusMax < 0 || l.RadiusMin < 0 || l.RadiusMin > l.RadiusMax {
				t.Errorf("%s: light radii %v..%v", name, l.RadiusMin, l.RadiusMax)
			}
		}
	}
}

// nonFinite names the first NaN or infinity in the map's geometry.
func nonFinite(m *core.Map) string {
	check := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	for _, w := range m.Walls {
		for _, v := range w.Data {
			if check(v) {
				return "a wall point " + strings.TrimSpace(jsonNumber(v))
			}
		}
	}
	for _, l := range m.Lights {
		for _, v := range []float64{l.X, l.Y, l.RadiusMin, l.RadiusMax, l.Opacity} {
			if check(v) {
				return "a light value " + jsonNumber(v)
			}
		}
	}
	for _, v := range []float64{m.X, m.Y, m.LosDaylight} {
		if check(v) {
			return "a map value " + jsonNumber(v)
		}
	}
	return ""
}

func jsonNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return "finite"
}

func TestUVTTRefusesNonImagesAndBadResolution(t *testing.T) {
	for name, doc := range map[string][]byte{
		"map_size 0":         uvttRaw(`{"map_origin":{"x":0,"y":0},"map_size":{"x":0,"y":3},"pixels_per_grid":100}`, `[]`, `[]`, `[]`),
		"pixels_per_grid 0":  uvttRaw(`{"map_origin":{"x":0,"y":0},"map_size":{"x":4,"y":3},"pixels_per_grid":0}`, `[]`, `[]`, `[]`),
		"negative map_size":  uvttRaw(`{"map_origin":{"x":0,"y":0},"map_size":{"x":-4,"y":3},"pixels_per_grid":100}`, `[]`, `[]`, `[]`),
		"enormous grid":      uvttRaw(`{"map_origin":{"x":0,"y":0},"map_size":{"x":4,"y":3},"pixels_per_grid":1e308}`, `[]`, `[]`, `[]`),
		"enormous map":       uvttRaw(`{"map_origin":{"x":0,"y":0},"map_size":{"x":1e9,"y":1e9},"pixels_per_grid":256}`, `[]`, `[]`, `[]`),
		"resolution string":  uvttRaw(`"big"`, `[]`, `[]`, `[]`),
		"format Infinity":    []byte(`{"format":Infinity}`),
		"format NaN string":  []byte(`{"format":"NaN","resolution":` + okResolution + `}`),
		"image not base64":   []byte(`{"format":0.3,"resolution":` + okResolution + `,"image":"%%%"}`),
		"image is text":      []byte(`{"format":0.3,"resolution":` + okResolution + `,"image":"` + base64.StdEncoding.EncodeToString([]byte("<svg onload=alert(1)>")) + `"}`),
		"image is html":      []byte(`{"format":0.3,"resolution":` + okResolution + `,"image":"data:text/html;base64,` + base64.StdEncoding.EncodeToString([]byte("<script>")) + `"}`),
		"deeply nested":      []byte(`{"format":0.3,"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`),
		"array not object":   []byte(`[{"format":0.3}]`),
		"walls not an array": uvttRaw(okResolution, `{"x":1}`, `[]`, `[]`),
	} {
		_, err := Parse(doc, "bad.uvtt")
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if k := core.KindOf(err); k != core.KindInvalid && k != core.KindTooLarge {
			t.Errorf("%s: error of kind %s: %v", name, k, err)
		}
	}
}
