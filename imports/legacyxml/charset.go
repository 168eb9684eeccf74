package legacyxml

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// unsupportedEncoding is a declared encoding this package does not read.
type unsupportedEncoding struct{ label string }

func (e *unsupportedEncoding) Error() string {
	return fmt.Sprintf("the document declares encoding %q, which is not supported: save it as UTF-8 (ISO-8859-1 and Windows-1252 are read too)", e.label)
}

// charsetReader is the decoder's CharsetReader: UTF-8 needs none; the
// single-byte encodings older Windows tools write are converted; anything
// else is refused with a clear error.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "us-ascii", "ascii":
		return input, nil // a subset of UTF-8; a byte above 127 fails as invalid UTF-8
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1":
		return &singleByteReader{r: input, table: nil}, nil
	case "windows-1252", "cp1252", "x-cp1252":
		return &singleByteReader{r: input, table: &cp1252}, nil
	}
	return nil, &unsupportedEncoding{label: label}
}

// cp1252 maps the bytes 0x80-0x9F of Windows-1252 (the rest is Latin-1);
// 0 marks the five bytes Windows-1252 leaves undefined.
var cp1252 = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// singleByteReader converts a single-byte encoding to UTF-8: each byte is
// the code point of the same value (Latin-1), except 0x80-0x9F under a
// table.
type singleByteReader struct {
	r       io.Reader
	table   *[32]rune
	pending []byte // converted bytes not yet returned
	buf     []byte
}

func (s *singleByteReader) Read(p []byte) (int, error) {
	if len(s.pending) == 0 {
		if cap(s.buf) == 0 {
			s.buf = make([]byte, 16<<10)
		}
		n, err := s.r.Read(s.buf[:min(len(s.buf), max(1, len(p)/3))])
		if n == 0 {
			return 0, err
		}
		out := s.pending[:0]
		for _, b := range s.buf[:n] {
			r := rune(b)
			if s.table != nil && b >= 0x80 && b <= 0x9F {
				if r = s.table[b-0x80]; r == 0 {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		}
		s.pending = out
		if err != nil && err != io.EOF {
			return 0, err
		}
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}
