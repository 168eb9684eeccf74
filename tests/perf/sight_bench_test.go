package perf

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/vttapp/companion/core/redact"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/uvtt"
	"github.com/vttapp/companion/internal/shareddata"
	"github.com/vttapp/companion/sight"
)

// BenchmarkRealMapSight measures what the sight payloads the real web
// client reads (docs/client-compatibility.md) add to sending a real
// Universal VTT map with four vision tokens: "encode" is the baseline (the
// players' map as JSON, what was sent before), "withSight" the same with
// every token's and light's polygon computed, "polygon" one drag polygon
// (what each tokenMoved control now costs on top of its broadcast).
// Compare withSight and polygon with encode of the same run.
func BenchmarkRealMapSight(b *testing.B) {
	for _, file := range []string{"mbround18-the-litch-and-his-tomb.webp.dd2vtt", "imagix-uvtt2fgu-sampleMap.dd2vtt"} {
		data, err := os.ReadFile(shareddata.Path(b, "uvtt/"+file))
		if err != nil {
			b.Fatal(err)
		}
		um, err := uvtt.Parse(data, file)
		if err != nil {
			b.Fatal(err)
		}
		m := um.Map
		m.ID = "bench"
		w, h := float64(m.Width), float64(m.Height)
		for i, p := range [][2]float64{{0.3, 0.3}, {0.5, 0.5}, {0.7, 0.4}, {0.4, 0.7}} {
			id := string(rune('a' + i))
			m.Tokens = append(m.Tokens, &core.Token{ID: "t-" + id, X: p[0] * w, Y: p[1] * h, Width: 1, Height: 1,
				Vision: &core.Vision{ID: "v-" + id, Enabled: true}, Auras: []core.Object{}})
		}
		segments := redact.SightSegments(m)
		b.Run(file+"/encode", func(b *testing.B) {
			for b.Loop() {
				if _, err := json.Marshal(redact.PlayerMap(m)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(file+"/withSight", func(b *testing.B) {
			for b.Loop() {
				if _, err := json.Marshal(redact.WithSight(redact.PlayerMap(m))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(segments)), "segments")
		})
		b.Run(file+"/polygon", func(b *testing.B) {
			box := [4]float64{0, 0, w, h}
			for b.Loop() {
				sight.VisionPolygon(0.5*w, 0.5*h, segments, box)
			}
		})
	}
}
