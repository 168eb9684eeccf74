package e2e

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
)

// BigMapBlue is the blue of BigMapPNG's pixel x, y: a checker of 4-pixel
// cells, the detail a picture scaled down to fit one texture loses.
func BigMapBlue(x, y int) uint8 {
	if (x/4+y/4)%2 == 0 {
		return 0
	}
	return 255
}

// BigMapPNG writes a side x side PNG for the big-map tests, a row at a
// time (as an image in memory it would take side² bytes or four times
// that): a palette whose red and green change every 1,500 pixels and
// whose blue is the checker of BigMapBlue. With noise, each pixel's green
// also varies by a random bit, so the file weighs about what a painted
// map of that size does (12,000 pixels: about 20 MB) rather than the few
// megabytes a plain checker compresses to.
func BigMapPNG(side int, noise bool) []byte {
	var out bytes.Buffer
	chunk := func(typ string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		out.WriteString(typ)
		out.Write(data)
		binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	out.WriteString("\x89PNG\r\n\x1a\n")
	head := make([]byte, 13)
	binary.BigEndian.PutUint32(head, uint32(side))
	binary.BigEndian.PutUint32(head[4:], uint32(side))
	head[8], head[9] = 8, 3 // 8 bits a pixel, a palette
	chunk("IHDR", head)
	var pal []byte
	for i := 0; i < 256; i++ { // index bits: region x (3), region y (3), checker (1), noise (1)
		rx, ry, c, n := i>>5&7, i>>2&7, i>>1&1, i&1
		pal = append(pal, uint8(rx*32+16), uint8(ry*32+16+n*8), uint8(c*255))
	}
	chunk("PLTE", pal)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	rng := rand.New(rand.NewPCG(7, 11))
	row := make([]byte, 1+side)
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			c := byte(0)
			if BigMapBlue(x, y) != 0 {
				c = 1
			}
			n := byte(0)
			if noise && rng.Uint32()&1 == 1 {
				n = 1
			}
			row[1+x] = byte(min(x/1500, 7))<<5 | byte(min(y/1500, 7))<<2 | c<<1 | n
		}
		zw.Write(row)
	}
	zw.Close()
	for data := z.Bytes(); len(data) > 0; {
		n := min(len(data), 1<<20)
		chunk("IDAT", data[:n])
		data = data[n:]
	}
	chunk("IEND", nil)
	return out.Bytes()
}
