package media

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/internal/shareddata"
)

func probeBytes(b []byte) (Info, error) { return Probe(bytes.NewReader(b), int64(len(b))) }

func TestProbeReadsTheSizeOfEveryFormat(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want Format
		w, h int
	}{
		{"png", encodePNG(t, 321, 123), PNG, 321, 123},
		{"jpeg", encodeJPEG(t, 640, 480), JPEG, 640, 480},
		{"gif", encodeGIF(t, 70, 35), GIF, 70, 35},
		{"webp lossy", webpLossy(1400, 980), WebP, 1400, 980},
		{"webp lossless", webpLossless(4096, 2048), WebP, 4096, 2048},
		{"webp extended", webpExtended(16000, 9000), WebP, 16000, 9000},
		{"mp4, moov after mdat, audio first", mp4File("isom", audioTrak(), videoTrak(tkhd(0, 1920, 1080, false), 1920, 1088)), MP4, 1920, 1080},
		{"mp4 version 1 header", mp4File("mp42", videoTrak(tkhd(1, 1280, 720, false), 1280, 720)), MP4, 1280, 720},
		{"mp4 turned a quarter", mp4File("isom", videoTrak(tkhd(0, 1920, 1080, true), 1920, 1080)), MP4, 1080, 1920},
		{"mp4 size from the sample entry", mp4File("isom", videoTrak(tkhd(0, 0, 0, false), 800, 600)), MP4, 800, 600},
		{"quicktime", mp4File("qt  ", videoTrak(tkhd(0, 640, 360, false), 640, 360)), MP4, 640, 360},
		{"webm", webmFile("webm", 1920, 1080), WebM, 1920, 1080},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := probeBytes(c.data)
			if err != nil {
				t.Fatal(err)
			}
			if got.Format != c.want || got.Width != c.w || got.Height != c.h {
				t.Errorf("got %s %d x %d, want %s %d x %d", got.Name, got.Width, got.Height, c.want.Name, c.w, c.h)
			}
		})
	}
}

// A 64-bit box size and a moov nested behind one are read.
func TestProbeMP4LargeBoxes(t *testing.T) {
	ftyp := isoBox("ftyp", []byte("isom"), u32(0), []byte("isom"))
	moov := isoBox("moov", videoTrak(tkhd(0, 500, 400, false), 500, 400))
	data := bytes.Join([][]byte{ftyp, isoBox64("mdat", make([]byte, 300)), moov}, nil)
	got, err := probeBytes(data)
	if err != nil || got.Width != 500 || got.Height != 400 {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestProbeRefusesWhatItCannotRead(t *testing.T) {
	png := encodePNG(t, 10, 10)
	jpg := encodeJPEG(t, 10, 10)
	noIHDR := append([]byte{}, png...)
	copy(noIHDR[12:16], "gAMA")
	sosFirst := append([]byte{0xFF, 0xD8, 0xFF, 0xDA, 0, 2}, make([]byte, 20)...)
	zeroSize := append([]byte{}, png...)
	binary.BigEndian.PutUint32(zeroSize[16:20], 0)
	// Segments with a zero-length body loop for ever unless bounded.
	manySegments := []byte{0xFF, 0xD8}
	for i := 0; i < maxJPEGSegments+10; i++ {
		manySegments = append(manySegments, 0xFF, 0xFE, 0, 2)
	}
	manyBoxes := append([]byte{}, isoBox("ftyp", []byte("isom"), u32(0))...)
	for i := 0; i < maxElements+10; i++ {
		manyBoxes = append(manyBoxes, isoBox("free")...)
	}
	lying := mp4File("isom", videoTrak(tkhd(0, 10, 10, false), 10, 10))
	binary.BigEndian.PutUint32(lying[len(lying)-len(isoBox("moov", isoBox("mvhd", make([]byte, 100)), videoTrak(tkhd(0, 10, 10, false), 10, 10))):], 1<<30)
	cases := []struct {
		name, data, want string
	}{
		{"text", "hello, I am not a picture", "not a PNG"},
		{"empty", "", "not a PNG"},
		{"avif", string(isoBox("ftyp", []byte("avif"), u32(0), []byte("mif1avif"))), "not a PNG"},
		{"png cut short", string(png[:20]), "truncated"},
		{"png without IHDR first", string(noIHDR), "image header"},
		{"png of zero pixels", string(zeroSize), "size of 0 x 10"},
		{"jpeg cut short", string(jpg[:30]), "truncated"},
		{"jpeg without a frame", string(sosFirst), "no frame header"},
		{"jpeg of endless segments", string(manySegments), "no frame header in the first"},
		{"webp unknown chunk", string(riff(chunk("ABCD", make([]byte, 12)))), "unknown first chunk"},
		{"webp lossy not a key frame", string(riff(chunk("VP8 ", make([]byte, 12)))), "key frame"},
		{"mp4 without moov", string(isoBox("ftyp", []byte("isom"), u32(0))) + string(isoBox("mdat", make([]byte, 40))), "no movie header"},
		{"mp4 audio only", string(mp4File("isom", audioTrak())), "no video track"},
		{"mp4 of endless boxes", string(manyBoxes), "more than"},
		{"mp4 box larger than the file", string(lying), "truncated or damaged"},
		{"matroska", string(webmFile("matroska", 10, 10)), "Matroska"},
		{"other ebml", string(webmFile("weird", 10, 10)), `"weird"`},
		{"webm cut short", string(webmFile("webm", 10, 10)[:60]), "truncated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := probeBytes([]byte(c.data))
			if err == nil {
				t.Fatalf("accepted: %+v", got)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
	if _, err := probeBytes([]byte("nothing")); !errors.Is(err, ErrNotMedia) {
		t.Errorf("unrecognised bytes: %v, want ErrNotMedia", err)
	}
}

// A header that claims an absurd size is read, not decoded: the caller
// refuses it by its numbers, having read a few bytes.
func TestProbeReadsHugeClaimsCheaply(t *testing.T) {
	png := encodePNG(t, 1, 1)
	binary.BigEndian.PutUint32(png[16:20], 1<<30)
	binary.BigEndian.PutUint32(png[20:24], 1<<30)
	counter := &countingReader{r: bytes.NewReader(png)}
	got, err := Probe(counter, int64(len(png)))
	if err != nil || got.Width != 1<<30 || got.Height != 1<<30 {
		t.Fatalf("%+v %v", got, err)
	}
	if counter.n > 200 {
		t.Errorf("read %d bytes to learn a size", counter.n)
	}
	// A movie whose media data is 1 GiB, skipped by its size: only headers are read.
	ftyp := isoBox("ftyp", []byte("isom"), u32(0))
	moov := isoBox("moov", videoTrak(tkhd(0, 320, 240, false), 320, 240))
	mdatHeader := binary.BigEndian.AppendUint64(append(u32(1), "mdat"...), 16+1<<30)
	file := &sparseFile{parts: [][]byte{ftyp, mdatHeader}, gap: 1 << 30, tail: moov}
	counter = &countingReader{r: file}
	got, err = Probe(counter, file.size())
	if err != nil || got.Width != 320 {
		t.Fatalf("%+v %v", got, err)
	}
	if counter.n > 2000 {
		t.Errorf("read %d bytes of a 1 GiB movie to learn its size", counter.n)
	}
}

type countingReader struct {
	r io.ReaderAt
	n int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// sparseFile is head parts, then gap zero bytes, then a tail: a large file
// that takes no memory.
type sparseFile struct {
	parts [][]byte
	gap   int64
	tail  []byte
}

func (f *sparseFile) head() []byte { return bytes.Join(f.parts, nil) }
func (f *sparseFile) size() int64  { return int64(len(f.head())) + f.gap + int64(len(f.tail)) }

func (f *sparseFile) ReadAt(p []byte, off int64) (int, error) {
	head := f.head()
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		switch {
		case pos < int64(len(head)):
			p[n] = head[pos]
		case pos < int64(len(head))+f.gap:
			p[n] = 0
		case pos < f.size():
			p[n] = f.tail[pos-int64(len(head))-f.gap]
		default:
			return n, io.EOF
		}
		n++
	}
	return n, nil
}

// The real maps in ../shared/data/uvtt embed their background (PNG or
// WebP, as Dungeondraft and others wrote them) and state its size as
// map_size x pixels_per_grid: the header reader must agree.
func TestProbeAgreesWithRealUVTTImages(t *testing.T) {
	dir := shareddata.Path(t, "uvtt")
	files, _ := filepath.Glob(filepath.Join(dir, "*vtt"))
	checked := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Resolution struct {
				MapSize       struct{ X, Y float64 } `json:"map_size"`
				PixelsPerGrid float64                `json:"pixels_per_grid"`
			} `json:"resolution"`
			Image string `json:"image"`
		}
		if json.Unmarshal(data, &doc) != nil || doc.Image == "" {
			continue
		}
		img, err := base64.StdEncoding.DecodeString(doc.Image)
		if err != nil {
			continue
		}
		got, err := probeBytes(img)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
			continue
		}
		w := int(math.Round(doc.Resolution.MapSize.X * doc.Resolution.PixelsPerGrid))
		h := int(math.Round(doc.Resolution.MapSize.Y * doc.Resolution.PixelsPerGrid))
		if got.Width != w || got.Height != h {
			t.Errorf("%s: %s %d x %d, the map says %d x %d", filepath.Base(path), got.Name, got.Width, got.Height, w, h)
		}
		t.Logf("%s: %s %d x %d", filepath.Base(path), got.Name, got.Width, got.Height)
		checked++
	}
	if checked == 0 {
		t.Skip("no Universal VTT map with an image in " + dir)
	}
}

// testdata holds two short recordings of a 321 x 187 canvas, made by
// Chromium's MediaRecorder (WebM with VP8, MP4 with H.264): real encoders'
// layouts, not only the ones the builders above lay out.
func TestProbeReadsRealRecordings(t *testing.T) {
	for file, want := range map[string]Format{"canvas-321x187.webm": WebM, "canvas-321x187.mp4": MP4} {
		f, err := os.Open(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		info, _ := f.Stat()
		got, err := Probe(f, info.Size())
		f.Close()
		if err != nil || got.Format != want || got.Width != 321 || got.Height != 187 {
			t.Errorf("%s: %+v %v", file, got, err)
		}
	}
}
