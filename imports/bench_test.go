package imports

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/shareddata"
)

// BenchmarkParseUVTT parses a real 3 MB map and reports its cost as a
// ratio to decoding the same JSON generically (the floor any parser pays).
func BenchmarkParseUVTT(b *testing.B) {
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
		if _, err := ParseUVTT(data, "x.dd2vtt"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start))/float64(baseline), "x-json-decode")
	b.SetBytes(int64(len(data)))
}

// BenchmarkExtractZip extracts a 200-file archive with every check and
// reports the ratio to a naive extraction (read each entry, write it with
// os.WriteFile, no checks): the price of the safety.
func BenchmarkExtractZip(b *testing.B) {
	var entries []zipEntry
	for i := 0; i < 200; i++ {
		entries = append(entries, zipEntry{name: "monsters/m" + itoa(i) + ".json", body: strings.Repeat(`{"name":"Goblin","hp":7}`, 200)})
	}
	data := makeZip(b, entries...)
	dirs := func() []string {
		out := make([]string, b.N)
		for i := range out {
			out[i] = b.TempDir()
		}
		return out
	}
	naiveDirs, safeDirs := dirs(), dirs()
	i := 0
	baseline := measure(b.N, func() {
		zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		os.MkdirAll(filepath.Join(naiveDirs[i], "monsters"), 0o755)
		for _, f := range zr.File {
			rc, _ := f.Open()
			body, _ := io.ReadAll(rc)
			rc.Close()
			os.WriteFile(filepath.Join(naiveDirs[i], f.Name), body, 0o644)
		}
		i++
	})
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if err := extractZip(bytes.NewReader(data), int64(len(data)), safeDirs[i], Limits{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start))/float64(baseline), "x-naive")
}

// measure times n runs of fn.
func measure(n int, fn func()) time.Duration {
	start := time.Now()
	for i := 0; i < n; i++ {
		fn()
	}
	return time.Since(start)
}
