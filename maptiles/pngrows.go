package maptiles

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// A PNG read one row at a time. A battle map of 12,000 pixels a side is
// 576 MB as an image in memory, more than a small board has; its rows
// come out of the zlib stream in order and each needs only the row
// before it to be unfiltered, so cutting tiles from it needs a band of
// rows, not the picture. Interlaced PNGs (rare for maps: the passes
// cover the whole picture) are not read this way (errInterlaced).

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

var (
	errInterlaced = errors.New("interlaced PNG")
	errNotPNG     = errors.New("not a PNG")
)

// pngRows reads a non-interlaced PNG's rows as premultiplied RGBA.
type pngRows struct {
	width, height int
	depth, color  int
	palette       [][4]uint8 // RGBA, premultiplied
	trans         []uint16   // the transparent grey or RGB of colour types 0 and 2
	chunks        *idatReader
	pixels        io.Reader
	bpp           int // bytes per complete pixel, at least 1
	cur, prev     []byte
}

// openPNG reads a PNG's header and palette and readies its pixels.
func openPNG(r io.Reader, maxSide int) (*pngRows, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	sig := make([]byte, 8)
	if _, err := io.ReadFull(br, sig); err != nil || string(sig) != string(pngSignature) {
		return nil, errNotPNG
	}
	c := &idatReader{r: br}
	p := &pngRows{chunks: c}
	for {
		typ, data, err := c.chunk()
		if err != nil {
			return nil, err
		}
		switch typ {
		case "IHDR":
			if err := p.header(data, maxSide); err != nil {
				return nil, err
			}
		case "PLTE":
			if len(data)%3 != 0 || len(data) == 0 || len(data) > 256*3 {
				return nil, errors.New("PNG palette of a wrong length")
			}
			p.palette = make([][4]uint8, len(data)/3)
			for i := range p.palette {
				p.palette[i] = [4]uint8{data[3*i], data[3*i+1], data[3*i+2], 255}
			}
		case "tRNS":
			p.transparency(data)
		case "IDAT":
			if p.width == 0 {
				return nil, errors.New("PNG pixels before its header")
			}
			if p.color == 3 && p.palette == nil {
				return nil, errors.New("PNG with a palette colour type and no palette")
			}
			c.pending = data
			z, err := zlib.NewReader(c)
			if err != nil {
				return nil, fmt.Errorf("PNG pixels: %w", err)
			}
			p.pixels = z
			rowBytes := (p.width*p.bitsPerPixel() + 7) / 8
			p.cur, p.prev = make([]byte, 1+rowBytes), make([]byte, 1+rowBytes)
			return p, nil
		case "IEND":
			return nil, errors.New("PNG without pixels")
		}
	}
}

func (p *pngRows) header(d []byte, maxSide int) error {
	if len(d) != 13 {
		return errors.New("PNG header of a wrong length")
	}
	w, h := binary.BigEndian.Uint32(d[0:4]), binary.BigEndian.Uint32(d[4:8])
	if w == 0 || h == 0 || w > uint32(maxSide) || h > uint32(maxSide) {
		return fmt.Errorf("a PNG of %d x %d pixels: the sides may be 1 to %d", w, h, maxSide)
	}
	p.width, p.height, p.depth, p.color = int(w), int(h), int(d[8]), int(d[9])
	ok := map[int][]int{0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}[p.color]
	valid := false
	for _, v := range ok {
		valid = valid || v == p.depth
	}
	if !valid || d[10] != 0 || d[11] != 0 {
		return fmt.Errorf("PNG colour type %d at %d bits is not a valid one", p.color, p.depth)
	}
	if d[12] != 0 {
		return errInterlaced
	}
	p.bpp = max(1, p.bitsPerPixel()/8)
	return nil
}

func (p *pngRows) bitsPerPixel() int {
	return p.depth * map[int]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[p.color]
}

func (p *pngRows) transparency(d []byte) {
	switch p.color {
	case 3:
		for i := 0; i < len(d) && i < len(p.palette); i++ {
			a := uint32(d[i])
			c := &p.palette[i]
			c[0], c[1], c[2], c[3] = uint8(uint32(c[0])*a/255), uint8(uint32(c[1])*a/255), uint8(uint32(c[2])*a/255), uint8(a)
		}
	case 0:
		if len(d) >= 2 {
			p.trans = []uint16{binary.BigEndian.Uint16(d)}
		}
	case 2:
		if len(d) >= 6 {
			p.trans = []uint16{binary.BigEndian.Uint16(d), binary.BigEndian.Uint16(d[2:]), binary.BigEndian.Uint16(d[4:])}
		}
	}
}

// next reads the next row into dst (width*4 bytes of premultiplied RGBA).
func (p *pngRows) next(dst []byte) error {
	p.cur, p.prev = p.prev, p.cur
	if _, err := io.ReadFull(p.pixels, p.cur); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("the PNG ends before its last row")
		}
		return fmt.Errorf("PNG pixels: %w", err)
	}
	if err := unfilter(p.cur[0], p.cur[1:], p.prev[1:], p.bpp); err != nil {
		return err
	}
	p.toRGBA(p.cur[1:], dst)
	return nil
}

// unfilter undoes a row's filter in place (the PNG specification's five).
func unfilter(kind byte, cur, prev []byte, bpp int) error {
	switch kind {
	case 0:
	case 1:
		for i := bpp; i < len(cur); i++ {
			cur[i] += cur[i-bpp]
		}
	case 2:
		for i := range cur {
			cur[i] += prev[i]
		}
	case 3:
		for i := 0; i < bpp && i < len(cur); i++ {
			cur[i] += prev[i] / 2
		}
		for i := bpp; i < len(cur); i++ {
			cur[i] += uint8((int(cur[i-bpp]) + int(prev[i])) / 2)
		}
	case 4:
		for i := range cur {
			var a, c int
			if i >= bpp {
				a, c = int(cur[i-bpp]), int(prev[i-bpp])
			}
			b := int(prev[i])
			pa, pb, pc := abs(b-c), abs(a-c), abs(a+b-2*c)
			switch {
			case pa <= pb && pa <= pc:
				cur[i] += uint8(a)
			case pb <= pc:
				cur[i] += uint8(b)
			default:
				cur[i] += uint8(c)
			}
		}
	default:
		return fmt.Errorf("PNG row filter %d is not a valid one", kind)
	}
	return nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// toRGBA turns one unfiltered row into premultiplied RGBA.
func (p *pngRows) toRGBA(row, dst []byte) {
	w := p.width
	put := func(x int, r, g, b, a uint32) { // 8-bit straight colour
		o := 4 * x
		dst[o], dst[o+1], dst[o+2], dst[o+3] = uint8(r*a/255), uint8(g*a/255), uint8(b*a/255), uint8(a)
	}
	switch {
	case p.color == 3 || (p.color == 0 && p.depth < 8):
		per := 8 / p.depth
		mask := byte(1<<p.depth - 1)
		for x := 0; x < w; x++ {
			v := row[x/per] >> (8 - p.depth*(x%per+1)) & mask
			if p.color == 3 {
				c := [4]uint8{0, 0, 0, 255}
				if int(v) < len(p.palette) {
					c = p.palette[v]
				}
				copy(dst[4*x:], c[:])
				continue
			}
			a := uint32(255)
			if p.trans != nil && uint16(v) == p.trans[0] {
				a = 0
			}
			g := uint32(v) * 255 / uint32(mask)
			put(x, g, g, g, a)
		}
	case p.depth == 8:
		n := p.bpp
		for x := 0; x < w; x++ {
			s := row[n*x : n*x+n]
			switch p.color {
			case 0:
				a := uint32(255)
				if p.trans != nil && uint16(s[0]) == p.trans[0] {
					a = 0
				}
				put(x, uint32(s[0]), uint32(s[0]), uint32(s[0]), a)
			case 2:
				a := uint32(255)
				if p.trans != nil && uint16(s[0]) == p.trans[0] && uint16(s[1]) == p.trans[1] && uint16(s[2]) == p.trans[2] {
					a = 0
				}
				put(x, uint32(s[0]), uint32(s[1]), uint32(s[2]), a)
			case 4:
				put(x, uint32(s[0]), uint32(s[0]), uint32(s[0]), uint32(s[1]))
			case 6:
				put(x, uint32(s[0]), uint32(s[1]), uint32(s[2]), uint32(s[3]))
			}
		}
	default: // 16 bits a sample: the high byte is kept, transparency judged on all 16
		n := p.bpp
		for x := 0; x < w; x++ {
			s := row[n*x : n*x+n]
			v := func(i int) uint16 { return binary.BigEndian.Uint16(s[2*i:]) }
			switch p.color {
			case 0:
				a := uint32(255)
				if p.trans != nil && v(0) == p.trans[0] {
					a = 0
				}
				put(x, uint32(s[0]), uint32(s[0]), uint32(s[0]), a)
			case 2:
				a := uint32(255)
				if p.trans != nil && v(0) == p.trans[0] && v(1) == p.trans[1] && v(2) == p.trans[2] {
					a = 0
				}
				put(x, uint32(s[0]), uint32(s[2]), uint32(s[4]), a)
			case 4:
				put(x, uint32(s[0]), uint32(s[0]), uint32(s[0]), uint32(s[2]))
			case 6:
				put(x, uint32(s[0]), uint32(s[2]), uint32(s[4]), uint32(s[6]))
			}
		}
	}
}

// idatReader reads a PNG's chunks; as an io.Reader it gives the data of
// consecutive IDAT chunks as one stream (the zlib stream is split across
// them at any byte).
type idatReader struct {
	r       *bufio.Reader
	pending []byte
	done    bool
}

// maxChunk bounds one chunk's length: PNG allows 2 GB, no encoder writes
// more than a few MB, and a forged length must not allocate.
const maxChunk = 64 << 20

func (c *idatReader) chunk() (typ string, data []byte, err error) {
	var head [8]byte
	if _, err := io.ReadFull(c.r, head[:]); err != nil {
		return "", nil, errors.New("the PNG ends inside its chunks")
	}
	n := binary.BigEndian.Uint32(head[:4])
	if n > maxChunk {
		return "", nil, fmt.Errorf("a PNG chunk of %d bytes (at most %d)", n, maxChunk)
	}
	data = make([]byte, n+4)
	if _, err := io.ReadFull(c.r, data); err != nil {
		return "", nil, errors.New("the PNG ends inside a chunk")
	}
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data[:n])
	if crc.Sum32() != binary.BigEndian.Uint32(data[n:]) {
		return "", nil, fmt.Errorf("PNG chunk %q fails its checksum", head[4:])
	}
	return string(head[4:]), data[:n], nil
}

func (c *idatReader) Read(b []byte) (int, error) {
	for len(c.pending) == 0 {
		if c.done {
			return 0, io.EOF
		}
		typ, data, err := c.chunk()
		if err != nil {
			return 0, err
		}
		if typ != "IDAT" {
			c.done = true // the pixels are one run of IDAT chunks
			continue
		}
		c.pending = data
	}
	n := copy(b, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}
