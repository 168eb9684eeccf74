package media

// Builders of small media files for the tests: real PNG, JPEG and GIF from
// the standard library's encoders, and WebP, MP4 and WebM headers laid out
// byte by byte after their specifications (RIFF/VP8, ISO/IEC 14496-12,
// EBML/Matroska), with a little fake media data where the pixels would be.

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

func encodePNG(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeGIF(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := gif.Encode(&b, image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black}), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// riff wraps chunks into a RIFF WEBP file.
func riff(chunks ...[]byte) []byte {
	body := []byte("WEBP")
	for _, c := range chunks {
		body = append(body, c...)
	}
	return append(append([]byte("RIFF"), le32(uint32(len(body)))...), body...)
}

func chunk(fourcc string, data []byte) []byte {
	out := append([]byte(fourcc), le32(uint32(len(data)))...)
	out = append(out, data...)
	if len(data)%2 == 1 {
		out = append(out, 0)
	}
	return out
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func u32(v uint32) []byte  { return binary.BigEndian.AppendUint32(nil, v) }
func u16(v uint16) []byte  { return binary.BigEndian.AppendUint16(nil, v) }

// webpLossy is a VP8 key frame header of w x h.
func webpLossy(w, h int) []byte {
	d := []byte{0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A}
	d = binary.LittleEndian.AppendUint16(d, uint16(w))
	d = binary.LittleEndian.AppendUint16(d, uint16(h))
	return riff(chunk("VP8 ", append(d, make([]byte, 20)...)))
}

// webpLossless is a VP8L header of w x h.
func webpLossless(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14
	d := append([]byte{0x2F}, le32(bits)...)
	return riff(chunk("VP8L", append(d, make([]byte, 10)...)))
}

// webpExtended is a VP8X header with a w x h canvas, then a lossy frame of
// another size (an animation's first frame may be smaller than the canvas).
func webpExtended(w, h int) []byte {
	d := []byte{0x10, 0, 0, 0}
	d = append(d, byte(w-1), byte((w-1)>>8), byte((w-1)>>16))
	d = append(d, byte(h-1), byte((h-1)>>8), byte((h-1)>>16))
	frame := webpLossy(16, 16)[12:]
	return riff(chunk("VP8X", d), frame)
}

// isoBox lays out an ISO base media box.
func isoBox(typ string, payload ...[]byte) []byte {
	var body []byte
	for _, p := range payload {
		body = append(body, p...)
	}
	return append(append(u32(uint32(8+len(body))), typ...), body...)
}

// isoBox64 is a box with a 64-bit size.
func isoBox64(typ string, payload []byte) []byte {
	out := append(u32(1), typ...)
	out = binary.BigEndian.AppendUint64(out, uint64(16+len(payload)))
	return append(out, payload...)
}

// tkhd is a track header of version 0 or 1 with a presentation size and,
// when turned, a quarter-turn matrix.
func tkhd(version byte, w, h int, turned bool) []byte {
	d := []byte{version, 0, 0, 7}
	if version == 1 {
		d = append(d, make([]byte, 8+8+4+4+8)...)
	} else {
		d = append(d, make([]byte, 4+4+4+4+4)...)
	}
	d = append(d, make([]byte, 8+2+2+2+2)...)
	one, minus := uint32(0x10000), uint32(0xFFFF0000)
	matrix := []uint32{one, 0, 0, 0, one, 0, 0, 0, 0x40000000}
	if turned {
		matrix = []uint32{0, one, 0, minus, 0, 0, 0, 0, 0x40000000}
	}
	for _, m := range matrix {
		d = append(d, u32(m)...)
	}
	d = append(d, u32(uint32(w)<<16)...)
	d = append(d, u32(uint32(h)<<16)...)
	return isoBox("tkhd", d)
}

func hdlr(handler string) []byte {
	return isoBox("hdlr", make([]byte, 8), []byte(handler), make([]byte, 12), []byte("handler\x00"))
}

// stsd is a sample description with one visual entry of w x h.
func stsd(w, h int) []byte {
	entry := append(make([]byte, 6), u16(1)...)
	entry = append(entry, make([]byte, 16)...)
	entry = append(entry, u16(uint16(w))...)
	entry = append(entry, u16(uint16(h))...)
	entry = append(entry, make([]byte, 50)...)
	return isoBox("stsd", make([]byte, 4), u32(1), isoBox("avc1", entry))
}

// videoTrak is a video track: tkhd size, and stsd size as the coded one.
func videoTrak(header []byte, codedW, codedH int) []byte {
	return isoBox("trak", header, isoBox("mdia", isoBox("mdhd", make([]byte, 24)), hdlr("vide"),
		isoBox("minf", isoBox("vmhd", make([]byte, 12)), isoBox("stbl", stsd(codedW, codedH)))))
}

func audioTrak() []byte {
	return isoBox("trak", tkhd(0, 0, 0, false), isoBox("mdia", hdlr("soun")))
}

// mp4File is an MP4 whose movie box comes after its media data (as many
// cameras write them), with an audio track before the video one.
func mp4File(brand string, traks ...[]byte) []byte {
	ftyp := isoBox("ftyp", []byte(brand), u32(0x200), []byte("isomiso2avc1mp41"))
	mdat := isoBox("mdat", bytes.Repeat([]byte{0xAB}, 4096))
	moov := isoBox("moov", append([][]byte{isoBox("mvhd", make([]byte, 100))}, traks...)...)
	return bytes.Join([][]byte{ftyp, isoBox("free"), mdat, moov}, nil)
}

// ebml lays out an EBML element: id bytes, a size as an 8-byte vint
// (or unknown), the payload.
func ebml(id []byte, payload ...[]byte) []byte {
	var body []byte
	for _, p := range payload {
		body = append(body, p...)
	}
	size := binary.BigEndian.AppendUint64(nil, uint64(len(body)))
	size[0] = 0x01 // an 8-byte vint
	return append(append(append([]byte{}, id...), size...), body...)
}

// ebmlShort is an element with a one-byte size.
func ebmlShort(id []byte, payload []byte) []byte {
	return append(append(append([]byte{}, id...), 0x80|byte(len(payload))), payload...)
}

func ebmlUnknown(id []byte, payload ...[]byte) []byte {
	out := append(append([]byte{}, id...), 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
	for _, p := range payload {
		out = append(out, p...)
	}
	return out
}

var (
	idEBML       = []byte{0x1A, 0x45, 0xDF, 0xA3}
	idDocType    = []byte{0x42, 0x82}
	idSegment    = []byte{0x18, 0x53, 0x80, 0x67}
	idSeekHead   = []byte{0x11, 0x4D, 0x9B, 0x74}
	idInfo       = []byte{0x15, 0x49, 0xA9, 0x66}
	idTracks     = []byte{0x16, 0x54, 0xAE, 0x6B}
	idTrackEntry = []byte{0xAE}
	idTrackType  = []byte{0x83}
	idVideo      = []byte{0xE0}
	idPixelW     = []byte{0xB0}
	idPixelH     = []byte{0xBA}
	idCluster    = []byte{0x1F, 0x43, 0xB6, 0x75}
)

// webmFile is a WebM as a browser's recorder writes it: a segment of
// unknown size, an audio track then a video one, then a cluster.
func webmFile(docType string, w, h int) []byte {
	header := ebml(idEBML, ebmlShort([]byte{0x42, 0x86}, []byte{1}), ebmlShort(idDocType, []byte(docType)))
	audio := ebml(idTrackEntry, ebmlShort(idTrackType, []byte{2}))
	video := ebml(idTrackEntry, ebmlShort(idTrackType, []byte{1}),
		ebml(idVideo, ebmlShort(idPixelW, u16(uint16(w))), ebmlShort(idPixelH, u16(uint16(h)))))
	segment := ebmlUnknown(idSegment, ebml(idSeekHead, make([]byte, 20)), ebml(idInfo, make([]byte, 30)),
		ebml(idTracks, audio, video), ebmlUnknown(idCluster, bytes.Repeat([]byte{0xCD}, 512)))
	return append(header, segment...)
}
