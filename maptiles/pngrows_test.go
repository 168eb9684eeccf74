package maptiles

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"testing"
)

// The row reader against the standard library's decoder, for every colour
// type and bit depth Go's encoder writes (it picks each row's filter, so
// varied pixels use all five), and for grey with alpha and single-colour
// transparency, which it does not write (writePNG below).

// pattern gives varied, deterministic pixels.
func pattern(x, y, k int) uint8 { return uint8((x*7 + y*13 + k*41 + (x*y)%17) % 256) }

func checkRowsMatch(t *testing.T, label string, data []byte) {
	t.Helper()
	want, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: the standard decoder refuses it: %v", label, err)
	}
	b := want.Bounds()
	ref := image.NewRGBA(b)
	draw.Draw(ref, b, want, b.Min, draw.Src)
	rows, err := openPNG(bytes.NewReader(data), MaxSide)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	row := make([]byte, 4*b.Dx())
	for y := 0; y < b.Dy(); y++ {
		if err := rows.next(row); err != nil {
			t.Fatalf("%s: row %d: %v", label, y, err)
		}
		for i, v := range row {
			w := ref.Pix[y*ref.Stride+i]
			if d := int(v) - int(w); d > 1 || d < -1 { // 16-bit samples are cut to 8 before premultiplying
				t.Fatalf("%s: row %d byte %d is %d, the standard decoder says %d", label, y, i, v, w)
			}
		}
	}
}

func TestPNGRowsMatchTheStandardDecoder(t *testing.T) {
	const w, h = 37, 23
	r := image.Rect(0, 0, w, h)
	images := map[string]image.Image{}
	gray, gray16 := image.NewGray(r), image.NewGray16(r)
	rgb, rgba := image.NewRGBA(r), image.NewNRGBA(r)
	rgb64, rgba64 := image.NewRGBA64(r), image.NewNRGBA64(r)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := func(k int) uint8 { return pattern(x, y, k) }
			gray.SetGray(x, y, color.Gray{p(0)})
			gray16.SetGray16(x, y, color.Gray16{uint16(p(0))<<8 | uint16(p(1))})
			rgb.SetRGBA(x, y, color.RGBA{p(0), p(1), p(2), 255})
			rgba.SetNRGBA(x, y, color.NRGBA{p(0), p(1), p(2), p(3)})
			rgb64.SetRGBA64(x, y, color.RGBA64{uint16(p(0)) << 8, uint16(p(1)) << 8, uint16(p(2))<<8 | 7, 0xffff})
			rgba64.SetNRGBA64(x, y, color.NRGBA64{uint16(p(0)) << 8, uint16(p(1))<<8 | 3, uint16(p(2)) << 8, uint16(p(3))<<8 | 9})
		}
	}
	images["grey 8"], images["grey 16"], images["RGB 8"], images["RGBA 8"] = gray, gray16, rgb, rgba
	images["RGB 16"], images["RGBA 16"] = rgb64, rgba64
	for _, n := range []int{2, 4, 16, 256} { // 1, 2, 4 and 8 bits a pixel
		pal := make(color.Palette, n)
		for i := range pal {
			pal[i] = color.NRGBA{uint8(i * 3), uint8(255 - i), uint8(i * 7), uint8(255 - (i%3)*100)} // some transparent: tRNS
		}
		img := image.NewPaletted(r, pal)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				img.SetColorIndex(x, y, pattern(x, y, 0)%uint8(n-1)+uint8(x%2))
			}
		}
		images["palette of "+string(rune('0'+len(pal)%10))+" "+strings.Repeat("i", n%7)] = img
	}
	for label, img := range images {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		checkRowsMatch(t, label, buf.Bytes())
	}
	// Grey with alpha, 8 and 16 bits, and single-colour transparency.
	ga8 := writePNG(t, w, h, 4, 8, nil, func(x, y int) []byte { return []byte{pattern(x, y, 0), pattern(x, y, 1)} })
	checkRowsMatch(t, "grey+alpha 8", ga8)
	ga16 := writePNG(t, w, h, 4, 16, nil, func(x, y int) []byte { return []byte{pattern(x, y, 0), 5, pattern(x, y, 1), 9} })
	checkRowsMatch(t, "grey+alpha 16", ga16)
	key := writePNG(t, w, h, 2, 8, []byte{0, 10, 0, 20, 0, 30}, func(x, y int) []byte {
		if (x+y)%3 == 0 {
			return []byte{10, 20, 30}
		}
		return []byte{pattern(x, y, 0), pattern(x, y, 1), 40}
	})
	checkRowsMatch(t, "RGB with a transparent colour", key)
	grey2 := writePNG(t, 40, 3, 0, 2, []byte{0, 1}, func(x, y int) []byte { return []byte{byte((x + y) % 4)} })
	checkRowsMatch(t, "grey 2 bits with a transparent grey", grey2)
}

// writePNG writes a PNG row by row from pixel samples, each row with the
// next of the five filters in turn.
func writePNG(t testing.TB, w, h, colorType, depth int, trns []byte, px func(x, y int) []byte) []byte {
	var buf bytes.Buffer
	if err := streamPNG(&buf, w, h, colorType, depth, trns, func(y int, row []byte) {
		if depth >= 8 {
			o := 0
			for x := 0; x < w; x++ {
				o += copy(row[o:], px(x, y))
			}
			return
		}
		for x := 0; x < w; x++ {
			per := 8 / depth
			row[x/per] |= px(x, y)[0] << (8 - depth*(x%per+1))
		}
	}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// streamPNG writes a PNG whose rows fill(y, row) gives, one at a time.
func streamPNG(out *bytes.Buffer, w, h, colorType, depth int, trns []byte, fill func(y int, row []byte)) error {
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		out.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		out.Write(n[:])
	}
	out.Write(pngSignature)
	head := make([]byte, 13)
	binary.BigEndian.PutUint32(head, uint32(w))
	binary.BigEndian.PutUint32(head[4:], uint32(h))
	head[8], head[9] = byte(depth), byte(colorType)
	chunk("IHDR", head)
	if trns != nil {
		chunk("tRNS", trns)
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	channels := map[int]int{0: 1, 2: 3, 4: 2, 6: 4}[colorType]
	bpp := max(1, channels*depth/8)
	row, prev, filtered := make([]byte, (w*channels*depth+7)/8), make([]byte, (w*channels*depth+7)/8), make([]byte, 1+(w*channels*depth+7)/8)
	for y := 0; y < h; y++ {
		clear(row)
		fill(y, row)
		filterRow(byte(y%5), row, prev, bpp, filtered)
		if _, err := zw.Write(filtered); err != nil {
			return err
		}
		row, prev = prev, row
		if z.Len() > 1<<20 {
			chunk("IDAT", z.Bytes())
			z.Reset()
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return nil
}

func TestPNGRowsRefuseBrokenPictures(t *testing.T) {
	good := writePNG(t, 20, 10, 6, 8, nil, func(x, y int) []byte { return []byte{1, 2, 3, 4} })
	huge := append([]byte(nil), good...)
	binary.BigEndian.PutUint32(huge[16:], 100000) // width in IHDR; the checksum no longer holds either
	cases := map[string][]byte{
		"not a PNG":    []byte("GIF89a......"),
		"truncated":    good[:len(good)-30],
		"forged size":  huge,
		"empty":        nil,
		"bad checksum": append(append([]byte(nil), good[:40]...), append([]byte{good[40] ^ 1}, good[41:]...)...),
	}
	for label, data := range cases {
		rows, err := openPNG(bytes.NewReader(data), MaxSide)
		if err == nil {
			row := make([]byte, 4*rows.width)
			for y := 0; y < rows.height && err == nil; y++ {
				err = rows.next(row)
			}
		}
		if err == nil {
			t.Errorf("%s: read without an error", label)
		}
	}
	// A side past the limit is refused from the header alone.
	big := writePNG(t, 70, 1, 0, 8, nil, func(x, y int) []byte { return []byte{0} })
	if _, err := openPNG(bytes.NewReader(big), 64); err == nil || !strings.Contains(err.Error(), "1 to 64") {
		t.Errorf("a 70-pixel side against a limit of 64: %v", err)
	}
}

// filterRow writes cur filtered by kind, with its filter byte, into out.
func filterRow(kind byte, cur, prev []byte, bpp int, out []byte) {
	out[0] = kind
	for i, v := range cur {
		var a, b, c int
		if i >= bpp {
			a, c = int(cur[i-bpp]), int(prev[i-bpp])
		}
		b = int(prev[i])
		var pred int
		switch kind {
		case 1:
			pred = a
		case 2:
			pred = b
		case 3:
			pred = (a + b) / 2
		case 4:
			pa, pb, pc := abs(b-c), abs(a-c), abs(a+b-2*c)
			switch {
			case pa <= pb && pa <= pc:
				pred = a
			case pb <= pc:
				pred = b
			default:
				pred = c
			}
		}
		out[1+i] = v - uint8(pred)
	}
}
