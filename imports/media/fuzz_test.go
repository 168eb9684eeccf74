package media

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzProbe: any bytes give a size or an error, never a panic, a hang or a
// read outside the file; a size given is positive.
func FuzzProbe(f *testing.F) {
	f.Add(encodePNG(f, 3, 2))
	f.Add(encodeJPEG(f, 8, 8))
	f.Add(encodeGIF(f, 2, 2))
	f.Add(webpLossy(10, 10))
	f.Add(webpLossless(10, 10))
	f.Add(webpExtended(10, 10))
	f.Add(mp4File("isom", audioTrak(), videoTrak(tkhd(1, 10, 10, true), 10, 10)))
	f.Add(webmFile("webm", 10, 10))
	for _, name := range []string{"canvas-321x187.webm", "canvas-321x187.mp4"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := Probe(strictReader{bytes.NewReader(data), int64(len(data)), t}, int64(len(data)))
		if err == nil && (info.Width <= 0 || info.Height <= 0 || info.Name == "") {
			t.Fatalf("accepted without a size: %+v", info)
		}
	})
}

// strictReader fails the test on a read that starts outside the file.
type strictReader struct {
	r    *bytes.Reader
	size int64
	t    *testing.T
}

func (s strictReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > s.size {
		s.t.Fatalf("read at %d of a %d-byte file", off, s.size)
	}
	return s.r.ReadAt(p, off)
}
