package legacy

import (
	"encoding/binary"
	"image"
	_ "image/gif" // map backgrounds: their sizes, by image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
)

// imageSize reads the width and height of an image file of the archive
// from its header: PNG, JPEG and GIF through the standard library, WebP
// from its chunk header. ok is false for anything else (a video, an SVG),
// or a damaged file.
func imageSize(fsys fs.FS, name string) (w, h int, ok bool) {
	f, err := fsys.Open(name)
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	head := make([]byte, 30)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if w, h, ok := webpSize(head); ok {
		return w, h, true
	}
	f.Close()
	if f, err = fsys.Open(name); err != nil {
		return 0, 0, false
	}
	cfg, _, err := image.DecodeConfig(io.LimitReader(f, 1<<20))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, false
	}
	return cfg.Width, cfg.Height, true
}

// webpSize reads a WebP file's size from its first chunk: VP8 (lossy),
// VP8L (lossless) or VP8X (extended).
func webpSize(b []byte) (int, int, bool) {
	if len(b) < 30 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	switch string(b[12:16]) {
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, false
		}
		return int(binary.LittleEndian.Uint16(b[26:28]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:30]) & 0x3fff), true
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(b[21:25])
		return int(bits&0x3fff) + 1, int((bits>>14)&0x3fff) + 1, true
	case "VP8X":
		w := int(b[24]) | int(b[25])<<8 | int(b[26])<<16
		h := int(b[27]) | int(b[28])<<8 | int(b[29])<<16
		return w + 1, h + 1, true
	}
	return 0, 0, false
}
