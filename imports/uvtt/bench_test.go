package uvtt

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/shareddata"
)

// BenchmarkParse parses a real 3 MB map and reports its cost as a
// ratio to decoding the same JSON generically (the floor any parser pays).
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile(shareddata.Path(b, "uvtt/mbround18-the-litch-and-his-tomb.webp.dd2vtt"))
	if err != nil {
		b.Fatal(err)
	}
	baseline := measure(b.N, func() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	})
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(data, "x.dd2vtt"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start))/float64(baseline), "x-json-decode")
	b.SetBytes(int64(len(data)))
}

// measure times n runs of fn.
func measure(n int, fn func()) time.Duration {
	start := time.Now()
	for i := 0; i < n; i++ {
		fn()
	}
	return time.Since(start)
}
