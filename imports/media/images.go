package media

import (
	"errors"
	"fmt"
)

// pngSize reads the IHDR chunk, which the PNG specification puts first:
// signature (8), length (4), "IHDR", width (4), height (4).
func pngSize(s *source) (int, int, error) {
	b, err := s.at(8, 16)
	if err != nil {
		return 0, 0, err
	}
	if string(b[4:8]) != "IHDR" || be32(b[0:4]) != 13 {
		return 0, 0, errors.New("the first chunk is not the image header (IHDR)")
	}
	w, h := be32(b[8:12]), be32(b[12:16])
	if w > 1<<31-1 || h > 1<<31-1 {
		return 0, 0, fmt.Errorf("the header's size %d x %d is beyond what PNG allows", w, h)
	}
	return int(w), int(h), nil
}

// gifSize reads the logical screen of a GIF: "GIF89a", width, height
// (little-endian 16 bits each).
func gifSize(s *source) (int, int, error) {
	b, err := s.at(6, 4)
	if err != nil {
		return 0, 0, err
	}
	return le16(b[0:2]), le16(b[2:4]), nil
}

// maxJPEGSegments bounds the segments read before the frame header: real
// files have a handful (APPn, DQT, DHT...), a hostile one could have
// millions of empty ones.
const maxJPEGSegments = 4096

// jpegSize walks the JPEG markers to the first start-of-frame (SOFn) and
// reads its height and width. Segments before it are skipped by their
// length, never read.
func jpegSize(s *source) (int, int, error) {
	off := int64(2) // after SOI (FF D8)
	for i := 0; i < maxJPEGSegments; i++ {
		b, err := s.at(off, 2)
		if err != nil {
			return 0, 0, err
		}
		if b[0] != 0xFF {
			return 0, 0, fmt.Errorf("expected a marker at byte %d", off)
		}
		marker := b[1]
		switch {
		case marker == 0xFF: // fill byte before a marker
			off++
			continue
		case marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7):
			off += 2 // markers without a segment
			continue
		case marker == 0xD9 || marker == 0xDA:
			return 0, 0, errors.New("no frame header before the image data")
		}
		seg, err := s.at(off+2, 2)
		if err != nil {
			return 0, 0, err
		}
		length := int64(be16(seg))
		if length < 2 {
			return 0, 0, fmt.Errorf("a segment at byte %d has a length of %d", off, length)
		}
		if isSOF(marker) {
			// length, precision (1), height (2), width (2)
			f, err := s.at(off+4, 5)
			if err != nil {
				return 0, 0, err
			}
			h, w := be16(f[1:3]), be16(f[3:5])
			if h == 0 {
				return 0, 0, errors.New("the height is given after the image data (DNL), which is not supported")
			}
			return w, h, nil
		}
		off += 2 + length
	}
	return 0, 0, fmt.Errorf("no frame header in the first %d segments", maxJPEGSegments)
}

// isSOF reports a start-of-frame marker: C0-CF except DHT (C4), JPG (C8)
// and DAC (CC).
func isSOF(m byte) bool {
	return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC
}

// webpSize reads the first chunk of a WebP file: VP8X (extended: the
// canvas size), VP8L (lossless) or "VP8 " (lossy), each of which states
// the size near its start.
func webpSize(s *source) (int, int, error) {
	b, err := s.at(12, 8)
	if err != nil {
		return 0, 0, err
	}
	chunk := string(b[0:4])
	switch chunk {
	case "VP8X":
		// flags (1), reserved (3), canvas width - 1 (24 bits), height - 1 (24 bits)
		d, err := s.at(20, 10)
		if err != nil {
			return 0, 0, err
		}
		return le24(d[4:7]) + 1, le24(d[7:10]) + 1, nil
	case "VP8L":
		// signature 0x2F, then 14 bits of width - 1 and 14 of height - 1
		d, err := s.at(20, 5)
		if err != nil {
			return 0, 0, err
		}
		if d[0] != 0x2F {
			return 0, 0, errors.New("the lossless bitstream has no signature")
		}
		bits := uint32(d[1]) | uint32(d[2])<<8 | uint32(d[3])<<16 | uint32(d[4])<<24
		return int(bits&0x3FFF) + 1, int(bits>>14&0x3FFF) + 1, nil
	case "VP8 ":
		// frame tag (3), start code 9D 01 2A, width and height (14 bits each, 2 of scale)
		d, err := s.at(20, 10)
		if err != nil {
			return 0, 0, err
		}
		if d[3] != 0x9D || d[4] != 0x01 || d[5] != 0x2A {
			return 0, 0, errors.New("the lossy bitstream does not start with a key frame")
		}
		return le16(d[6:8]) & 0x3FFF, le16(d[8:10]) & 0x3FFF, nil
	}
	return 0, 0, fmt.Errorf("unknown first chunk %q", chunk)
}
