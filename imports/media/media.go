// Package media recognises the images and videos a battle map can be made
// of (PNG, JPEG, WebP and GIF images; MP4 and WebM videos) by their first
// bytes, and reads their pixel size from their headers alone: no pixel is
// ever decoded, so a file that claims 100 000 x 100 000 pixels costs a few
// hundred bytes of reading, and the caller refuses it by its numbers.
//
// Every reader is bounded: it reads at a few fixed offsets of the file
// (io.ReaderAt), skips what it does not need by offset rather than by
// reading, and gives up after a fixed number of boxes, segments or
// elements. Errors say what is wrong in words a person can act on.
//
// It is a leaf: the standard library only.
package media

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Kind is what a map's background is: an image or a video.
type Kind string

const (
	Image Kind = "image"
	Video Kind = "video"
)

// Format is a recognised file type.
type Format struct {
	Name string // "PNG", "JPEG", "WebP", "GIF", "MP4", "WebM"
	Kind Kind
	MIME string // image/png, video/mp4...
	Ext  string // the extension a stored copy gets: .png, .jpg, .webp, .gif, .mp4, .webm
}

// The formats Sniff recognises.
var (
	PNG  = Format{"PNG", Image, "image/png", ".png"}
	JPEG = Format{"JPEG", Image, "image/jpeg", ".jpg"}
	WebP = Format{"WebP", Image, "image/webp", ".webp"}
	GIF  = Format{"GIF", Image, "image/gif", ".gif"}
	MP4  = Format{"MP4", Video, "video/mp4", ".mp4"}
	WebM = Format{"WebM", Video, "video/webm", ".webm"}
)

// Info is a probed file: its format and its size in pixels.
type Info struct {
	Format
	Width, Height int
}

// HeadSize is how many first bytes Sniff needs at most.
const HeadSize = 64

// ErrNotMedia is returned by Probe for bytes Sniff does not recognise.
var ErrNotMedia = errors.New("not a PNG, JPEG, WebP or GIF image, nor an MP4 or WebM video")

// Sniff recognises a format from a file's first bytes (HeadSize are
// enough). It looks at magic numbers only; Probe then checks the header.
func Sniff(head []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, true
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG, true
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return WebP, true
	case bytes.HasPrefix(head, []byte("GIF87a")) || bytes.HasPrefix(head, []byte("GIF89a")):
		return GIF, true
	case len(head) >= 12 && string(head[4:8]) == "ftyp" && isoVideoBrand(head):
		return MP4, true
	case bytes.HasPrefix(head, []byte{0x1A, 0x45, 0xDF, 0xA3}):
		return WebM, true // the EBML magic; Probe checks the DocType is webm
	}
	return Format{}, false
}

// Probe reads the format and pixel size of the file r of size bytes.
func Probe(r io.ReaderAt, size int64) (Info, error) {
	head := make([]byte, HeadSize)
	n, err := r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return Info{}, err
	}
	f, ok := Sniff(head[:n])
	if !ok {
		return Info{}, ErrNotMedia
	}
	src := &source{r: r, size: size}
	var w, h int
	switch f {
	case PNG:
		w, h, err = pngSize(src)
	case JPEG:
		w, h, err = jpegSize(src)
	case WebP:
		w, h, err = webpSize(src)
	case GIF:
		w, h, err = gifSize(src)
	case MP4:
		w, h, err = mp4Size(src)
	case WebM:
		w, h, err = webmSize(src)
	}
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	if w <= 0 || h <= 0 {
		return Info{}, fmt.Errorf("%s: the header gives a size of %d x %d pixels", f.Name, w, h)
	}
	return Info{Format: f, Width: w, Height: h}, nil
}

// source reads fixed ranges of a file, never past its end.
type source struct {
	r    io.ReaderAt
	size int64
}

// errTruncated is a header that ends before it should.
var errTruncated = errors.New("the file ends inside its header: it is truncated or damaged")

// at reads n bytes at off; reading past the end is errTruncated.
func (s *source) at(off int64, n int) ([]byte, error) {
	if off < 0 || n < 0 || off > s.size || int64(n) > s.size-off {
		return nil, errTruncated
	}
	b := make([]byte, n)
	if _, err := s.r.ReadAt(b, off); err != nil && !(err == io.EOF && off+int64(n) == s.size) {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, errTruncated
		}
		return nil, err
	}
	return b, nil
}

func be16(b []byte) int { return int(b[0])<<8 | int(b[1]) }
func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
func le16(b []byte) int { return int(b[0]) | int(b[1])<<8 }
func le24(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
