package media

import (
	"errors"
	"fmt"
)

// maxElements bounds the boxes (MP4) or elements (WebM) a probe visits:
// real files need a few dozen before the size is known.
const maxElements = 10000

// errTooManyElements is a file whose structure is made to exhaust a reader.
var errTooManyElements = fmt.Errorf("more than %d boxes or elements before the video's size: the file is damaged or made to mislead", maxElements)

// imageBrands are ISO base media brands of still images (HEIF, AVIF):
// they start like an MP4 but hold no video.
var imageBrands = map[string]bool{"avif": true, "avis": true, "heic": true, "heix": true, "heim": true,
	"heis": true, "mif1": true, "msf1": true}

// isoVideoBrand reports whether an ISO base media file (ftyp at offset 4)
// is not one of the still-image brands.
func isoVideoBrand(head []byte) bool {
	return !imageBrands[string(head[8:12])]
}

// box is an ISO base media box: its type and where its payload lies.
type box struct {
	typ        string
	start, end int64 // payload
}

// eachBox calls fn for the boxes laid end to end in [start, end), until fn
// says stop. budget counts every box visited, across calls.
func eachBox(s *source, start, end int64, budget *int, fn func(b box) (stop bool, err error)) error {
	for off := start; off+8 <= end; {
		if *budget--; *budget < 0 {
			return errTooManyElements
		}
		h, err := s.at(off, 8)
		if err != nil {
			return err
		}
		size, hdr := int64(be32(h[0:4])), int64(8)
		switch size {
		case 1: // a 64-bit size follows the type
			l, err := s.at(off+8, 8)
			if err != nil {
				return err
			}
			size, hdr = int64(be32(l[0:4]))<<32|int64(be32(l[4:8])), 16
		case 0: // to the end of the enclosing box
			size = end - off
		}
		if size < hdr || size > end-off {
			return fmt.Errorf("box %q at byte %d says it is %d bytes long, which does not fit: the file is truncated or damaged", string(h[4:8]), off, size)
		}
		stop, err := fn(box{typ: string(h[4:8]), start: off + hdr, end: off + size})
		if err != nil || stop {
			return err
		}
		off += size
	}
	return nil
}

// child finds the first box of a type directly inside parent.
func child(s *source, parent box, typ string, budget *int) (box, bool, error) {
	var found box
	ok := false
	err := eachBox(s, parent.start, parent.end, budget, func(b box) (bool, error) {
		if b.typ == typ {
			found, ok = b, true
		}
		return ok, nil
	})
	return found, ok, err
}

// mp4Size finds the first video track of an MP4 (or QuickTime) file and
// reads its presentation size from the track header (tkhd), or from the
// sample description when the header leaves it at zero. The movie box may
// come after the media data: that is skipped by its size, not read.
func mp4Size(s *source) (int, int, error) {
	budget := maxElements
	moov, ok, err := child(s, box{start: 0, end: s.size}, "moov", &budget)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		return 0, 0, errors.New("the file has no movie header (moov): it is truncated or not a video")
	}
	var w, h int
	found := false
	err = eachBox(s, moov.start, moov.end, &budget, func(trak box) (bool, error) {
		if trak.typ != "trak" {
			return false, nil
		}
		video, err := isVideoTrack(s, trak, &budget)
		if err != nil || !video {
			return false, err
		}
		w, h, err = trackSize(s, trak, &budget)
		found = err == nil
		return true, err
	})
	if err != nil {
		return 0, 0, err
	}
	if !found {
		return 0, 0, errors.New("the file has no video track")
	}
	return w, h, nil
}

// isVideoTrack reads trak/mdia/hdlr: handler type "vide".
func isVideoTrack(s *source, trak box, budget *int) (bool, error) {
	mdia, ok, err := child(s, trak, "mdia", budget)
	if err != nil || !ok {
		return false, err
	}
	hdlr, ok, err := child(s, mdia, "hdlr", budget)
	if err != nil || !ok {
		return false, err
	}
	b, err := s.at(hdlr.start+8, 4) // version and flags (4), pre_defined (4)
	if err != nil {
		return false, err
	}
	return string(b) == "vide", nil
}

// trackSize reads a video track's size: tkhd's width and height (16.16
// fixed point, turned by a quarter-turn matrix), else the first visual
// sample entry's.
func trackSize(s *source, trak box, budget *int) (int, int, error) {
	tkhd, ok, err := child(s, trak, "tkhd", budget)
	if err != nil {
		return 0, 0, err
	}
	if ok {
		v, err := s.at(tkhd.start, 1)
		if err != nil {
			return 0, 0, err
		}
		matrix := int64(40) // version 0: flags, 32-bit times, ids, reserved...
		if v[0] == 1 {
			matrix = 52 // version 1: 64-bit times
		}
		b, err := s.at(tkhd.start+matrix, 44) // matrix (36), width (4), height (4)
		if err != nil {
			return 0, 0, err
		}
		w, h := int(be32(b[36:40])>>16), int(be32(b[40:44])>>16)
		a, d := be32(b[0:4]), be32(b[16:20])
		if a == 0 && d == 0 && be32(b[4:8]) != 0 {
			w, h = h, w // a quarter turn: a phone held upright
		}
		if w > 0 && h > 0 {
			return w, h, nil
		}
	}
	for _, path := range []string{"mdia", "minf", "stbl", "stsd"} {
		next, ok, err := child(s, trak, path, budget)
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			return 0, 0, errors.New("the video track gives no size")
		}
		trak = next
	}
	// stsd: version and flags (4), entry count (4); the entry: size (4),
	// format (4), reserved (6), data reference (2), pre_defined and
	// reserved (16), width (2), height (2).
	b, err := s.at(trak.start+8+32, 4)
	if err != nil {
		return 0, 0, err
	}
	return be16(b[0:2]), be16(b[2:4]), nil
}

// EBML (Matroska, WebM) element ids this reader needs.
const (
	ebmlHeader     = 0x1A45DFA3
	ebmlDocType    = 0x4282
	mkvSegment     = 0x18538067
	mkvTracks      = 0x1654AE6B
	mkvCluster     = 0x1F43B675
	mkvTrackEntry  = 0xAE
	mkvTrackType   = 0x83
	mkvVideo       = 0xE0
	mkvPixelWidth  = 0xB0
	mkvPixelHeight = 0xBA
)

// element is an EBML element: its id and where its payload lies (end is
// the parent's end when its size is unknown).
type element struct {
	id         uint64
	start, end int64
	unknown    bool
}

// vint reads an EBML variable-length integer at off: its value (with the
// length marker kept for ids, removed for sizes) and its length.
func vint(s *source, off int64, keepMarker bool) (uint64, int64, error) {
	b, err := s.at(off, 1)
	if err != nil {
		return 0, 0, err
	}
	n := 1
	for mask := byte(0x80); n <= 8 && b[0]&mask == 0; mask >>= 1 {
		n++
	}
	if n > 8 {
		return 0, 0, fmt.Errorf("a malformed number at byte %d", off)
	}
	all, err := s.at(off, n)
	if err != nil {
		return 0, 0, err
	}
	v := uint64(all[0])
	if !keepMarker {
		v &= uint64(0xFF >> n)
	}
	ones := v == uint64(0xFF>>n)
	for _, c := range all[1:] {
		v = v<<8 | uint64(c)
		ones = ones && c == 0xFF
	}
	if !keepMarker && ones {
		return ebmlUnknownSizeValue, int64(n), nil
	}
	return v, int64(n), nil
}

// ebmlUnknownSizeValue marks an element whose size is "unknown" (all ones):
// it runs to the end of its parent (live recordings write it).
const ebmlUnknownSizeValue = ^uint64(0)

// eachElement calls fn for the elements laid end to end in [start, end).
func eachElement(s *source, start, end int64, budget *int, fn func(e element) (stop bool, err error)) error {
	for off := start; off < end; {
		if *budget--; *budget < 0 {
			return errTooManyElements
		}
		id, idLen, err := vint(s, off, true)
		if err != nil {
			return err
		}
		size, sizeLen, err := vint(s, off+idLen, false)
		if err != nil {
			return err
		}
		e := element{id: id, start: off + idLen + sizeLen}
		if e.start > end {
			return fmt.Errorf("element %X at byte %d runs past its parent", id, off)
		}
		if size == ebmlUnknownSizeValue {
			e.end, e.unknown = end, true
		} else {
			if size > uint64(end-e.start) {
				return fmt.Errorf("element %X at byte %d says it is %d bytes long, which does not fit: the file is truncated or damaged", id, off, size)
			}
			e.end = e.start + int64(size)
		}
		stop, err := fn(e)
		if err != nil || stop {
			return err
		}
		if e.unknown {
			return nil // nothing after it can be found
		}
		off = e.end
	}
	return nil
}

// uintValue reads an element's payload as an unsigned integer (at most 8 bytes).
func uintValue(s *source, e element) (uint64, error) {
	n := e.end - e.start
	if n > 8 {
		return 0, fmt.Errorf("element %X holds %d bytes where a number is expected", e.id, n)
	}
	b, err := s.at(e.start, int(n))
	if err != nil {
		return 0, err
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, nil
}

// webmSize checks the EBML header names a WebM document and reads the
// pixel size of its first video track. The track list comes before the
// clusters in every file a browser or encoder writes.
func webmSize(s *source) (int, int, error) {
	budget := maxElements
	var docType string
	var segment *element
	err := eachElement(s, 0, s.size, &budget, func(e element) (bool, error) {
		switch e.id {
		case ebmlHeader:
			if e.unknown {
				return true, errors.New("the EBML header has no size")
			}
			return false, eachElement(s, e.start, e.end, &budget, func(c element) (bool, error) {
				if c.id != ebmlDocType {
					return false, nil
				}
				if c.end-c.start > 32 {
					return true, errors.New("the document type is too long")
				}
				b, err := s.at(c.start, int(c.end-c.start))
				docType = string(trimZeros(b))
				return true, err
			})
		case mkvSegment:
			segment = &e
			return true, nil
		}
		return false, nil
	})
	if err != nil {
		return 0, 0, err
	}
	switch {
	case docType == "matroska":
		return 0, 0, errors.New("this is a Matroska (.mkv) video, which browsers do not play: convert it to WebM or MP4")
	case docType != "webm":
		return 0, 0, fmt.Errorf("the document type is %q, not webm", docType)
	case segment == nil:
		return 0, 0, errors.New("the file has no segment: it is truncated or not a video")
	}
	w, h := 0, 0
	found := false
	err = eachElement(s, segment.start, segment.end, &budget, func(e element) (bool, error) {
		switch e.id {
		case mkvCluster:
			return true, nil // media data: the tracks should have come before
		case mkvTracks:
			err := eachElement(s, e.start, e.end, &budget, func(t element) (bool, error) {
				if t.id != mkvTrackEntry {
					return false, nil
				}
				var err error
				w, h, found, err = webmTrack(s, t, &budget)
				return found, err
			})
			return true, err
		}
		if e.unknown {
			return true, fmt.Errorf("element %X has no size", e.id)
		}
		return false, nil
	})
	if err != nil {
		return 0, 0, err
	}
	if !found {
		return 0, 0, errors.New("the file has no video track before its media data")
	}
	return w, h, nil
}

// webmTrack reads a TrackEntry: a video track (type 1) and its pixel size.
func webmTrack(s *source, t element, budget *int) (w, h int, video bool, err error) {
	var kind uint64
	err = eachElement(s, t.start, t.end, budget, func(e element) (bool, error) {
		switch e.id {
		case mkvTrackType:
			var err error
			kind, err = uintValue(s, e)
			return false, err
		case mkvVideo:
			return false, eachElement(s, e.start, e.end, budget, func(v element) (bool, error) {
				if v.id != mkvPixelWidth && v.id != mkvPixelHeight {
					return false, nil
				}
				n, err := uintValue(s, v)
				if n > 1<<31-1 {
					n = 1<<31 - 1 // far beyond any limit: the caller refuses it
				}
				if v.id == mkvPixelWidth {
					w = int(n)
				} else {
					h = int(n)
				}
				return false, err
			})
		}
		return false, nil
	})
	return w, h, err == nil && kind == 1 && w > 0 && h > 0, err
}

func trimZeros(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}
