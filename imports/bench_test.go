package imports

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

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
