package imports

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

func extractBytes(t *testing.T, data []byte, lim Limits) (string, error) {
	t.Helper()
	dst := t.TempDir()
	return dst, extractZip(bytes.NewReader(data), int64(len(data)), dst, lim)
}

func TestExtractWritesFilesAndDropsMacLitter(t *testing.T) {
	data := makeZip(t,
		zipEntry{name: "module.json", body: `{"name":"A"}`},
		zipEntry{name: "monsters/", body: ""},
		zipEntry{name: "monsters/goblin.png", body: "png", store: true},
		zipEntry{name: "__MACOSX/._module.json", body: "junk"},
		zipEntry{name: "monsters/.DS_Store", body: "junk"},
		zipEntry{name: ".DS_Store", body: "junk"},
	)
	dst, err := extractBytes(t, data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := listFiles(t, dst), []string{"module.json", "monsters/goblin.png"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
}

func TestExtractRefusesEscapingEntries(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"../evil.txt", "outside"},
		{"maps/../../evil.txt", "outside"},
		{"/etc/evil.txt", "absolute"},
		{`..\evil.txt`, "backslash"},
		{`maps\cave.png`, "backslash"},
		{"C:/evil.txt", "drive"},
	} {
		dst, err := extractBytes(t, makeZip(t, zipEntry{name: "ok.txt", body: "x"}, zipEntry{name: tc.name, body: "x"}), Limits{})
		if err == nil {
			t.Errorf("%s accepted", tc.name)
			continue
		}
		if core.KindOf(err) != core.KindInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
		if files := listFiles(t, dst); len(files) != 0 {
			t.Errorf("%s: files written before the refusal: %v", tc.name, files)
		}
	}
}

func TestExtractRefusesSymlinks(t *testing.T) {
	data := makeZip(t, zipEntry{name: "link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777})
	_, err := extractBytes(t, data, Limits{})
	wantKind(t, err, core.KindInvalid, "symbolic link")
}

func TestExtractRefusesZipBomb(t *testing.T) {
	zeros := strings.Repeat("\x00", 8<<20) // 8 MiB of zeros deflate to about 8 KiB
	_, err := extractBytes(t, makeZip(t, zipEntry{name: "zeros.bin", body: zeros}), Limits{})
	wantKind(t, err, core.KindTooLarge, "zip bomb")
}

func TestExtractCapsEntriesAndTotalSize(t *testing.T) {
	var many []zipEntry
	for i := 0; i < 11; i++ {
		many = append(many, zipEntry{name: "f" + itoa(i), body: "x"})
	}
	_, err := extractBytes(t, makeZip(t, many...), Limits{MaxEntries: 10})
	wantKind(t, err, core.KindTooLarge, "entries")

	big := zipEntry{name: "big.txt", body: strings.Repeat("abcdefgh", 1000), store: true}
	_, err = extractBytes(t, makeZip(t, big), Limits{MaxTotalBytes: 4000})
	wantKind(t, err, core.KindTooLarge, "more than 4000 bytes")
}

// A directory that understates an entry's size is caught while copying.
func TestExtractCatchesLyingSizes(t *testing.T) {
	body := bytes.Repeat([]byte("abcdefgh"), 4096)
	var comp bytes.Buffer
	fw, _ := flate.NewWriter(&comp, flate.BestCompression)
	fw.Write(body)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "liar.txt", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(body),
		CompressedSize64: uint64(comp.Len()), UncompressedSize64: 10})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
	zw.Close()
	_, err = extractBytes(t, buf.Bytes(), Limits{})
	wantKind(t, err, core.KindInvalid, "damaged")
}

func TestExtractRefusesTruncatedAndNonZip(t *testing.T) {
	data := makeZip(t, zipEntry{name: "module.json", body: `{"name":"A"}`})
	for _, cut := range []int{len(data) / 2, len(data) - 5, 10} {
		_, err := extractBytes(t, data[:cut], Limits{})
		wantKind(t, err, core.KindInvalid, "truncated")
	}
	_, err := extractBytes(t, []byte("not a zip at all"), Limits{})
	wantKind(t, err, core.KindInvalid, "not a valid zip")
}

func TestExtractRefusesDuplicates(t *testing.T) {
	data := makeZip(t, zipEntry{name: "a.json", body: "1"}, zipEntry{name: "A.json", body: "2"})
	_, err := extractBytes(t, data, Limits{})
	wantKind(t, err, core.KindInvalid, "twice")
}
