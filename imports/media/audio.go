package media

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
)

// Audio is the kind of a sound file (the table's music and ambience).
const Audio Kind = "audio"

// The audio formats ProbeAudio recognises. The extension is the one a
// stored copy gets; browsers play every one of them.
var (
	OggVorbis = Format{"Ogg Vorbis", Audio, "audio/ogg", ".ogg"}
	OggOpus   = Format{"Ogg Opus", Audio, "audio/ogg", ".opus"}
	MP3       = Format{"MP3", Audio, "audio/mpeg", ".mp3"}
	M4A       = Format{"M4A", Audio, "audio/mp4", ".m4a"}
	AAC       = Format{"AAC", Audio, "audio/aac", ".aac"}
	WAV       = Format{"WAV", Audio, "audio/wav", ".wav"}
	FLAC      = Format{"FLAC", Audio, "audio/flac", ".flac"}
)

// AudioInfo is a probed sound file: its format and its length.
type AudioInfo struct {
	Format
	// Duration in seconds, read from the container's header (WAV, FLAC,
	// M4A, an MP3's Xing/Info frame, an Ogg stream's last page) or
	// estimated from the bit rate (an MP3 without one, raw AAC).
	Duration float64
}

// ErrNotAudio is returned by ProbeAudio for bytes it does not recognise.
var ErrNotAudio = errors.New("not an Ogg Vorbis or Opus, MP3, M4A/AAC, WAV or FLAC sound file")

// oggTail is how much of an Ogg file's end ProbeAudio reads to find its
// last page (a page is at most 65 307 bytes).
const oggTail = 66 << 10

// ProbeAudio reads the format and length of the sound file r of size
// bytes. It reads the headers only, at fixed offsets (and an Ogg file's
// last 66 KiB), and refuses a file whose header says it is longer than it
// is (truncated).
func ProbeAudio(r io.ReaderAt, size int64) (AudioInfo, error) {
	if size <= 0 {
		return AudioInfo{}, errors.New("the file is empty")
	}
	src := &source{r: r, size: size}
	head, err := src.at(0, int(min(size, HeadSize)))
	if err != nil {
		return AudioInfo{}, err
	}
	var f Format
	var d float64
	switch {
	case bytes.HasPrefix(head, []byte("OggS")):
		f, d, err = oggAudio(src)
	case bytes.HasPrefix(head, []byte("fLaC")):
		f = FLAC
		d, err = flacDuration(src)
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		f = WAV
		d, err = wavDuration(src)
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		f = M4A
		d, err = m4aDuration(src)
	case bytes.HasPrefix(head, []byte("ID3")) || mp3Sync(head):
		f = MP3
		d, err = mp3Duration(src)
	case len(head) >= 7 && head[0] == 0xFF && head[1]&0xF6 == 0xF0:
		f = AAC
		d, err = adtsDuration(src)
	default:
		return AudioInfo{}, ErrNotAudio
	}
	if err != nil {
		if f.Name == "" {
			return AudioInfo{}, err
		}
		return AudioInfo{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	if d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		d = 0
	}
	return AudioInfo{Format: f, Duration: math.Round(d*1000) / 1000}, nil
}

func leU32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func leU64(b []byte) uint64 { return uint64(leU32(b[0:4])) | uint64(leU32(b[4:8]))<<32 }

// oggAudio reads the first page's codec (Vorbis or Opus) and the length
// from the granule position of the file's last page.
func oggAudio(s *source) (Format, float64, error) {
	h, err := s.at(0, 27)
	if err != nil {
		return Format{}, 0, err
	}
	nsegs := int(h[26])
	first, err := s.at(27+int64(nsegs), min(19, int(s.size-27-int64(nsegs))))
	if err != nil || len(first) < 19 {
		return Format{}, 0, errTruncated
	}
	var f Format
	var rate float64
	var preskip int64
	switch {
	case bytes.HasPrefix(first, []byte("\x01vorbis")):
		f, rate = OggVorbis, float64(leU32(first[12:16]))
	case bytes.HasPrefix(first, []byte("OpusHead")):
		f, rate, preskip = OggOpus, 48000, int64(le16(first[10:12]))
	default:
		return Format{}, 0, errors.New("an Ogg file holding neither Vorbis nor Opus sound")
	}
	if rate <= 0 {
		return f, 0, errors.New("the header gives a sample rate of 0")
	}
	start := max(0, s.size-oggTail)
	tail, err := s.at(start, int(s.size-start))
	if err != nil {
		return f, 0, err
	}
	// The last page: the last "OggS" that starts a well-formed header.
	for i := bytes.LastIndex(tail, []byte("OggS")); i >= 0; i = bytes.LastIndex(tail[:i], []byte("OggS")) {
		if i+27 > len(tail) || tail[i+4] != 0 || i+27+int(tail[i+26]) > len(tail) {
			continue
		}
		n := int(tail[i+26])
		body := 0
		for _, l := range tail[i+27 : i+27+n] {
			body += int(l)
		}
		if i+27+n+body > len(tail) {
			return f, 0, errTruncated // the last page ends past the file's end
		}
		granule := int64(leU64(tail[i+6 : i+14]))
		if granule < 0 {
			continue // no packet ends on this page
		}
		return f, float64(granule-preskip) / rate, nil
	}
	return f, 0, errTruncated
}

// flacDuration reads STREAMINFO (sample rate and total samples) and walks
// the metadata blocks, which must end inside the file.
func flacDuration(s *source) (float64, error) {
	b, err := s.at(4, 4+34)
	if err != nil {
		return 0, err
	}
	if b[0]&0x7F != 0 {
		return 0, errors.New("the first metadata block is not STREAMINFO")
	}
	info := b[4:]
	rate := int(info[10])<<12 | int(info[11])<<4 | int(info[12])>>4
	total := int64(info[13]&0x0F)<<32 | int64(be32(info[14:18]))
	off := int64(4)
	for i := 0; ; i++ {
		if i > maxElements {
			return 0, errTooManyElements
		}
		h, err := s.at(off, 4)
		if err != nil {
			return 0, err
		}
		off += 4 + int64(h[1])<<16 | int64(h[2])<<8 | int64(h[3])
		if off > s.size {
			return 0, errTruncated
		}
		if h[0]&0x80 != 0 {
			break
		}
	}
	if off >= s.size {
		return 0, errTruncated // metadata and no sound
	}
	if rate == 0 {
		return 0, errors.New("the header gives a sample rate of 0")
	}
	return float64(total) / float64(rate), nil
}

// wavDuration walks a RIFF WAVE file's chunks: fmt gives the byte rate,
// data the length, which must fit in the file.
func wavDuration(s *source) (float64, error) {
	byteRate := 0.0
	for off, i := int64(12), 0; off+8 <= s.size; i++ {
		if i > maxElements {
			return 0, errTooManyElements
		}
		h, err := s.at(off, 8)
		if err != nil {
			return 0, err
		}
		size := int64(leU32(h[4:8]))
		switch string(h[:4]) {
		case "fmt ":
			f, err := s.at(off+8, 16)
			if err != nil {
				return 0, err
			}
			byteRate = float64(leU32(f[8:12]))
		case "data":
			if byteRate <= 0 {
				return 0, errors.New("no format chunk before the sound data, or a byte rate of 0")
			}
			if off+8+size > s.size {
				return 0, errTruncated
			}
			return float64(size) / byteRate, nil
		}
		off += 8 + size + size&1
	}
	return 0, errors.New("the file has no sound data (no data chunk)")
}

// m4aDuration reads moov/mvhd (timescale and duration) of an ISO base
// media file with a sound track; every top-level box must fit the file.
func m4aDuration(s *source) (float64, error) {
	budget := maxElements
	top := box{start: 0, end: s.size}
	var moov box
	found := false
	// Walk every top-level box, so that a truncated media data box is seen.
	if err := eachBox(s, top.start, top.end, &budget, func(b box) (bool, error) {
		if b.typ == "moov" && !found {
			moov, found = b, true
		}
		return false, nil
	}); err != nil {
		return 0, err
	}
	if !found {
		return 0, errors.New("the file has no movie header (moov): it is truncated or not sound")
	}
	sound := false
	if err := eachBox(s, moov.start, moov.end, &budget, func(trak box) (bool, error) {
		if trak.typ != "trak" {
			return false, nil
		}
		h, err := handlerType(s, trak, &budget)
		sound = h == "soun"
		return sound, err
	}); err != nil {
		return 0, err
	}
	if !sound {
		return 0, errors.New("the file has no sound track")
	}
	mvhd, ok, err := child(s, moov, "mvhd", &budget)
	if err != nil || !ok {
		return 0, errors.Join(err, errors.New("the file has no movie header (mvhd)"))
	}
	v, err := s.at(mvhd.start, 1)
	if err != nil {
		return 0, err
	}
	var scale, dur float64
	if v[0] == 1 {
		b, err := s.at(mvhd.start+20, 12)
		if err != nil {
			return 0, err
		}
		scale, dur = float64(be32(b[0:4])), float64(uint64(be32(b[4:8]))<<32|uint64(be32(b[8:12])))
	} else {
		b, err := s.at(mvhd.start+12, 8)
		if err != nil {
			return 0, err
		}
		scale, dur = float64(be32(b[0:4])), float64(be32(b[4:8]))
	}
	if scale == 0 {
		return 0, errors.New("the header gives a time scale of 0")
	}
	return dur / scale, nil
}

// handlerType is trak/mdia/hdlr's handler: "soun", "vide"...
func handlerType(s *source, trak box, budget *int) (string, error) {
	mdia, ok, err := child(s, trak, "mdia", budget)
	if err != nil || !ok {
		return "", err
	}
	hdlr, ok, err := child(s, mdia, "hdlr", budget)
	if err != nil || !ok {
		return "", err
	}
	b, err := s.at(hdlr.start+8, 4)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// mp3Frame is an MPEG audio frame header.
type mp3Frame struct {
	mpeg1, mono       bool
	bitrate, rate     int // kbit/s, Hz
	samples, length   int // per frame; bytes
	sideInfo, version int
}

var (
	mp3Rates        = [4][3]int{{11025, 12000, 8000}, {}, {22050, 24000, 16000}, {44100, 48000, 32000}}
	mp3BitrateV1L1  = [16]int{0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448}
	mp3BitrateV1L2  = [16]int{0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384}
	mp3BitrateV1L3  = [16]int{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320}
	mp3BitrateV2L1  = [16]int{0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256}
	mp3BitrateV2L23 = [16]int{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160}
)

// parseMP3Frame reads a frame header; ok=false when b is not one.
func parseMP3Frame(b []byte) (mp3Frame, bool) {
	if len(b) < 4 || b[0] != 0xFF || b[1]&0xE0 != 0xE0 {
		return mp3Frame{}, false
	}
	version, layer := int(b[1]>>3&3), int(b[1]>>1&3)
	bi, ri := int(b[2]>>4), int(b[2]>>2&3)
	if version == 1 || layer == 0 || bi == 0 || bi == 15 || ri == 3 {
		return mp3Frame{}, false
	}
	f := mp3Frame{mpeg1: version == 3, mono: b[3]>>6 == 3, rate: mp3Rates[version][ri], version: version}
	pad := int(b[2] >> 1 & 1)
	switch {
	case layer == 3 && f.mpeg1:
		f.bitrate, f.samples = mp3BitrateV1L1[bi], 384
	case layer == 3:
		f.bitrate, f.samples = mp3BitrateV2L1[bi], 384
	case layer == 2 && f.mpeg1:
		f.bitrate, f.samples = mp3BitrateV1L2[bi], 1152
	case layer == 2:
		f.bitrate, f.samples = mp3BitrateV2L23[bi], 1152
	case f.mpeg1:
		f.bitrate, f.samples = mp3BitrateV1L3[bi], 1152
	default:
		f.bitrate, f.samples = mp3BitrateV2L23[bi], 576
	}
	if layer == 3 {
		f.length = (12*f.bitrate*1000/f.rate + pad) * 4
	} else {
		f.length = f.samples/8*f.bitrate*1000/f.rate + pad
	}
	switch {
	case f.mpeg1 && !f.mono:
		f.sideInfo = 32
	case f.mpeg1 || !f.mono:
		f.sideInfo = 17
	default:
		f.sideInfo = 9
	}
	return f, f.length > 4
}

// mp3Sync reports whether head starts with an MPEG audio frame header.
func mp3Sync(head []byte) bool {
	_, ok := parseMP3Frame(head)
	return ok
}

// mp3Duration skips an ID3v2 tag, checks that two frames follow each
// other (one frame header alone is too weak a sign), and reads the frame
// count of a Xing/Info header, or estimates from the bit rate.
func mp3Duration(s *source) (float64, error) {
	start := int64(0)
	if h, err := s.at(0, 10); err == nil && string(h[:3]) == "ID3" {
		start = 10 + int64(h[6]&0x7F)<<21 | int64(h[7]&0x7F)<<14 | int64(h[8]&0x7F)<<7 | int64(h[9]&0x7F)
		if h[5]&0x10 != 0 {
			start += 10 // a footer
		}
	}
	h, err := s.at(start, 4)
	if err != nil {
		return 0, errors.New("the file ends inside its ID3 tag, before any sound: it is truncated or damaged")
	}
	f, ok := parseMP3Frame(h)
	if !ok {
		return 0, errors.New("no MPEG audio frame after the ID3 tag: not an MP3")
	}
	if next := start + int64(f.length); next+4 <= s.size {
		if h2, err := s.at(next, 4); err != nil || !mp3Sync(h2) {
			return 0, errors.New("the first frame is not followed by another: not an MP3, or damaged")
		}
	}
	if x, err := s.at(start+4+int64(f.sideInfo), 12); err == nil && (string(x[:4]) == "Xing" || string(x[:4]) == "Info") && be32(x[4:8])&1 != 0 {
		return float64(be32(x[8:12])) * float64(f.samples) / float64(f.rate), nil
	}
	audio := s.size - start
	if t, err := s.at(s.size-128, 3); err == nil && string(t) == "TAG" {
		audio -= 128 // an ID3v1 tag at the end
	}
	return float64(audio) * 8 / float64(f.bitrate*1000), nil
}

// adtsDuration estimates a raw AAC (ADTS) stream's length from its first
// frame: frames of that size, 1024 samples each.
func adtsDuration(s *source) (float64, error) {
	h, err := s.at(0, 7)
	if err != nil {
		return 0, err
	}
	rates := []int{96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350}
	ri := int(h[2] >> 2 & 0xF)
	length := int(h[3]&3)<<11 | int(h[4])<<3 | int(h[5])>>5
	if ri >= len(rates) || length < 7 {
		return 0, errors.New("the first frame's header is not valid")
	}
	if int64(length)+2 <= s.size {
		n, err := s.at(int64(length), 2)
		if err != nil || n[0] != 0xFF || n[1]&0xF6 != 0xF0 {
			return 0, errors.New("the first frame is not followed by another: not AAC, or damaged")
		}
	}
	return float64(s.size) / float64(length) * 1024 / float64(rates[ri]), nil
}
