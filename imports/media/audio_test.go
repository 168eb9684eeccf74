package media_test

// The sound files below are laid out byte by byte after their
// specifications (Ogg RFC 3533 with the Vorbis and Opus identification
// headers, FLAC STREAMINFO, MPEG audio frames with an ID3v2 tag and a
// Xing header, ISO base media boxes), with filler where the sound would be;
// the WAV is a real one (testkit.WAV).

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/vttapp/companion/imports/media"
	"github.com/vttapp/companion/internal/testkit"
)

func probe(t *testing.T, b []byte) (media.AudioInfo, error) {
	t.Helper()
	return media.ProbeAudio(bytes.NewReader(b), int64(len(b)))
}

// oggPage is one Ogg page holding body as one packet.
func oggPage(granule int64, body []byte) []byte {
	var segs []byte
	for n := len(body); ; n -= 255 {
		if n >= 255 {
			segs = append(segs, 255)
			continue
		}
		segs = append(segs, byte(n))
		break
	}
	h := make([]byte, 27)
	copy(h, "OggS")
	binary.LittleEndian.PutUint64(h[6:], uint64(granule))
	h[26] = byte(len(segs))
	return append(append(h, segs...), body...)
}

func oggFile(first []byte, lastGranule int64) []byte {
	f := oggPage(0, first)
	f = append(f, oggPage(-1, bytes.Repeat([]byte{7}, 3000))...)
	return append(f, oggPage(lastGranule, bytes.Repeat([]byte{9}, 600))...)
}

func vorbisHead(rate uint32) []byte {
	b := make([]byte, 30)
	copy(b, "\x01vorbis")
	binary.LittleEndian.PutUint32(b[12:], rate)
	return b
}

func opusHead(preskip uint16) []byte {
	b := make([]byte, 19)
	copy(b, "OpusHead")
	b[8], b[9] = 1, 2
	binary.LittleEndian.PutUint16(b[10:], preskip)
	return b
}

func flacFile(rate int, samples int64) []byte {
	b := []byte("fLaC")
	b = append(b, 0x80, 0, 0, 34) // last block, STREAMINFO, 34 bytes
	info := make([]byte, 34)
	info[10] = byte(rate >> 12)
	info[11] = byte(rate >> 4)
	info[12] = byte(rate<<4) | 0x02 // channels and bits after
	info[13] = byte(samples>>32) & 0x0F
	binary.BigEndian.PutUint32(info[14:], uint32(samples))
	return append(append(b, info...), bytes.Repeat([]byte{1}, 100)...)
}

// mp3File is an ID3v2 tag and MPEG-1 layer III frames at 128 kbit/s,
// 44.1 kHz, stereo; xingFrames > 0 puts a Xing header in the first.
func mp3File(frames, xingFrames int) []byte {
	tag := []byte{'I', 'D', '3', 4, 0, 0, 0, 0, 0, 20}
	tag = append(tag, make([]byte, 20)...)
	frame := make([]byte, 417) // 144 * 128000 / 44100
	copy(frame, []byte{0xFF, 0xFB, 0x90, 0x00})
	out := tag
	for i := range frames {
		f := bytes.Clone(frame)
		if i == 0 && xingFrames > 0 {
			copy(f[4+32:], "Xing")
			binary.BigEndian.PutUint32(f[4+32+4:], 1)
			binary.BigEndian.PutUint32(f[4+32+8:], uint32(xingFrames))
		}
		out = append(out, f...)
	}
	return out
}

func isoBox(typ string, parts ...[]byte) []byte {
	body := bytes.Join(parts, nil)
	b := make([]byte, 8, 8+len(body))
	binary.BigEndian.PutUint32(b, uint32(8+len(body)))
	copy(b[4:], typ)
	return append(b, body...)
}

// m4aFile is ftyp, mdat (media bytes of sound) and moov with mvhd and a
// sound track, in that order (the movie box after the data).
func m4aFile(scale, duration uint32, handler string) []byte {
	mvhd := make([]byte, 100)
	binary.BigEndian.PutUint32(mvhd[12:], scale)
	binary.BigEndian.PutUint32(mvhd[16:], duration)
	hdlr := make([]byte, 24)
	copy(hdlr[8:], handler)
	trak := isoBox("trak", isoBox("mdia", isoBox("hdlr", hdlr)))
	return bytes.Join([][]byte{isoBox("ftyp", []byte("M4A \x00\x00\x00\x00isom")), isoBox("mdat", make([]byte, 500)),
		isoBox("moov", isoBox("mvhd", mvhd), trak)}, nil)
}

func TestProbeAudioReadsEachFormatAndItsLength(t *testing.T) {
	adts := []byte{0xFF, 0xF1, 0x50, 0x80, 0x02, 0x00, 0xFC} // 44.1 kHz, frames of 16 bytes
	adtsFile := bytes.Repeat(append(adts, make([]byte, 9)...), 100)
	cases := []struct {
		name   string
		file   []byte
		format media.Format
		length float64
	}{
		{"wav", testkit.WAV(2.5, 8000), media.WAV, 2.5},
		{"vorbis", oggFile(vorbisHead(44100), 44100*90), media.OggVorbis, 90},
		{"opus", oggFile(opusHead(312), 48000*30+312), media.OggOpus, 30},
		{"flac", flacFile(48000, 48000*61), media.FLAC, 61},
		{"mp3 xing", mp3File(20, 1000), media.MP3, 1000 * 1152 / 44100.0},
		{"mp3 cbr", mp3File(20, 0), media.MP3, float64(20*417) * 8 / 128000},
		{"m4a", m4aFile(1000, 12345, "soun"), media.M4A, 12.345},
		{"aac", adtsFile, media.AAC, 100 * 1024 / 44100.0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, err := probe(t, c.file)
			if err != nil {
				t.Fatal(err)
			}
			if info.Format != c.format || math.Abs(info.Duration-c.length) > 0.002 {
				t.Fatalf("got %s %.3f s, want %s %.3f s", info.Name, info.Duration, c.format.Name, c.length)
			}
		})
	}
}

func TestProbeAudioRefusesWhatIsNotSoundOrIsCut(t *testing.T) {
	wav := testkit.WAV(1, 8000)
	ogg := oggFile(vorbisHead(44100), 44100*90)
	m4a := m4aFile(1000, 12345, "soun")
	cases := []struct {
		name, want string
		file       []byte
	}{
		{"text named .mp3", "not an Ogg", []byte("this is a text file, not a song\n")},
		{"empty", "empty", nil},
		{"png", "not an Ogg", []byte("\x89PNG\r\n\x1a\n0000000000000000")},
		{"wav cut", "truncated", wav[:len(wav)/2]},
		{"ogg cut", "truncated", ogg[:len(ogg)-100]},
		{"ogg of another codec", "neither Vorbis nor Opus", oggFile([]byte("\x80theora-------------------"), 100)},
		{"m4a cut", "does not fit", m4a[:len(m4a)-50]},
		{"mp4 video", "no sound track", m4aFile(1000, 5000, "vide")},
		{"flac cut", "truncated", flacFile(48000, 1)[:30]},
		{"id3 then nothing", "truncated", mp3File(0, 0)[:25]},
		{"one frame header then noise", "not followed", append([]byte{0xFF, 0xFB, 0x90, 0x00}, bytes.Repeat([]byte("x"), 900)...)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := probe(t, c.file)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

func FuzzProbeAudio(f *testing.F) {
	f.Add(testkit.WAV(0.01, 8000))
	f.Add(oggFile(opusHead(312), 48000))
	f.Add(mp3File(3, 3))
	f.Add(m4aFile(1000, 1, "soun"))
	f.Add(flacFile(8000, 8000))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = media.ProbeAudio(bytes.NewReader(b), int64(len(b)))
	})
}
