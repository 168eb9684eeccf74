package uvtt

import (
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core"
)

// FuzzParseUVTT: any bytes are refused with an Invalid or TooLarge error
// or give a map that can be stored (finite numbers, positive size).
func FuzzParse(f *testing.F) {
	f.Add(uvttRaw(okResolution, `[[{"x":0,"y":0},{"x":4,"y":3},{"x":-2,"y":1}]]`, `[{"position":{"x":1,"y":1},"bounds":[{"x":0,"y":1},{"x":2,"y":1}],"closed":true}]`,
		`[{"position":{"x":1,"y":1},"range":3,"intensity":0.5,"color":"ffeccd8b"}]`))
	f.Add(uvttRaw(`{"map_origin":{"x":-3,"y":2.5},"map_size":{"x":10,"y":10},"pixels_per_grid":70}`, `[[{"x":-10,"y":-10},{"x":20,"y":20}]]`, `[]`, `[]`))
	f.Add(uvttRaw(okResolution, `[[{"x":1e308,"y":1e308},{"x":-1e308,"y":0}]]`, `[]`, `[]`))
	f.Add([]byte(`{"format":0.2}`))
	f.Add([]byte(`{"format":"0.3","resolution":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, "fuzz.uvtt")
		if err != nil {
			if k := core.KindOf(err); k != core.KindInvalid && k != core.KindTooLarge {
				t.Fatalf("error of kind %s: %v", k, err)
			}
			return
		}
		if bad := nonFinite(m.Map); bad != "" {
			t.Fatalf("map holds %s", bad)
		}
		if _, err := json.Marshal(m.Map); err != nil {
			t.Fatalf("map cannot be stored: %v", err)
		}
		if m.Map.Width < 1 || m.Map.Height < 1 || m.Map.Width > maxMapPixels || m.Map.Height > maxMapPixels {
			t.Fatalf("map of %dx%d pixels", m.Map.Width, m.Map.Height)
		}
		if imageExt(m.Image) == "" {
			t.Fatalf("image of unknown type accepted")
		}
	})
}
