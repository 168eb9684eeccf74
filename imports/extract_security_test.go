package imports

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// Hostile archives: every refusal is a clear error and leaves nothing that
// escapes the target folder.

func TestExtractRefusesHostileNames(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{`..\..\evil.txt`, "backslash"},
		{`maps\..\..\evil.txt`, "backslash"},
		{`C:\evil.txt`, "backslash"},
		{`C:evil.txt`, "drive"},
		{`c:/windows/evil.txt`, "drive"},
		{"//server/share/evil.txt", "absolute"},
		{"a/../../evil.txt", "outside"},
		{"..", "outside"},
		{"a/..", "outside"},
		{"a\x00b.txt", "NUL"},
		{".", "not a valid path"},
		{"./", ""}, // a folder entry: dropped, not an error
	} {
		body := "x"
		if strings.HasSuffix(tc.name, "/") {
			body = ""
		}
		dst, err := extractBytes(t, makeZip(t, zipEntry{name: "ok.txt", body: "x"}, zipEntry{name: tc.name, body: body}), Limits{})
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q accepted; files %v", tc.name, listFiles(t, dst))
			continue
		}
		if core.KindOf(err) != core.KindInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v", tc.name, err)
		}
	}
}

func TestExtractRefusesSymlinkEntriesWhateverTheirTarget(t *testing.T) {
	for _, target := range []string{"/etc/passwd", "../../outside", "inside.txt"} {
		dst, err := extractBytes(t, makeZip(t,
			zipEntry{name: "inside.txt", body: "x"},
			zipEntry{name: "maps/link", body: target, mode: fs.ModeSymlink | 0o777},
		), Limits{})
		wantKind(t, err, core.KindInvalid, "symbolic link")
		filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type()&fs.ModeSymlink != 0 {
				t.Errorf("a symbolic link was written: %s", p)
			}
			return nil
		})
	}
}

func TestExtractRefusesDuplicateNames(t *testing.T) {
	for _, pair := range [][2]string{
		{"maps/cave.png", "MAPS/Cave.PNG"},
		{"maps/cave.png", "maps/cave.png"},
		{"maps/cave.png", "maps//cave.png"},
		{"maps/cave.png", "maps/./cave.png"},
	} {
		_, err := extractBytes(t, makeZip(t, zipEntry{name: pair[0], body: "1"}, zipEntry{name: pair[1], body: "2"}), Limits{})
		wantKind(t, err, core.KindInvalid, "twice")
	}
}

// A file and a folder of the same name cannot both exist: the archive is
// refused with a message naming the entry, not an internal error.
func TestExtractRefusesAFileThatIsAlsoAFolder(t *testing.T) {
	for _, order := range [][]string{{"maps", "maps/cave.png"}, {"maps/cave.png", "maps"}} {
		_, err := extractBytes(t, makeZip(t, zipEntry{name: order[0], body: "1"}, zipEntry{name: order[1], body: "2"}), Limits{})
		if err == nil {
			t.Errorf("%v accepted", order)
			continue
		}
		if core.KindOf(err) != core.KindInvalid || !strings.Contains(err.Error(), "maps") {
			t.Errorf("%v: %v (%s)", order, err, core.KindOf(err))
		}
		if strings.Contains(err.Error(), os.TempDir()) {
			t.Errorf("%v: the message shows a local path: %v", order, err)
		}
	}
}

// Entries of exactly the ratio floor escape the per-entry ratio check;
// the archive as a whole must still not unpack to hundreds of times its
// size (4 GiB written from a 4 MiB download).
func TestExtractRefusesManyEntriesThatTogetherAreABomb(t *testing.T) {
	zeros := strings.Repeat("\x00", RatioFloor)
	var entries []zipEntry
	for i := 0; i < 40; i++ {
		entries = append(entries, zipEntry{name: "zeros/" + itoa(i) + ".bin", body: zeros})
	}
	data := makeZip(t, entries...)
	if ratio := 40 * RatioFloor / len(data); ratio < 200 {
		t.Fatalf("test archive compresses only %d to 1", ratio)
	}
	dst, err := extractBytes(t, data, Limits{})
	wantKind(t, err, core.KindTooLarge, "zip bomb")
	if files := listFiles(t, dst); len(files) != 0 {
		t.Errorf("%d files written before the refusal", len(files))
	}
}

// Small archives of well-compressed text are not bombs.
func TestExtractAcceptsCompressibleSmallArchives(t *testing.T) {
	text := strings.Repeat(`{"name":"Goblin","type":"humanoid"},`, 20000) // ~700 KB, compresses hundreds to one
	if _, err := extractBytes(t, makeZip(t, zipEntry{name: "monsters.json", body: text}), Limits{}); err != nil {
		t.Fatal(err)
	}
}

func TestExtractDeclaredHugeSizeIsRefusedBeforeWriting(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "huge.bin", Method: zip.Store, CompressedSize64: 1, UncompressedSize64: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("x"))
	zw.Close()
	dst, err := extractBytes(t, buf.Bytes(), Limits{})
	if err == nil || (core.KindOf(err) != core.KindTooLarge && core.KindOf(err) != core.KindInvalid) {
		t.Fatalf("got %v", err)
	}
	if files := listFiles(t, dst); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

// A zip inside a zip is a file like any other: it is not unpacked.
func TestExtractDoesNotUnpackNestedArchives(t *testing.T) {
	inner := makeZip(t, zipEntry{name: "../../evil.txt", body: "x"})
	dst, err := extractBytes(t, makeZip(t, zipEntry{name: "inner.zip", body: string(inner), store: true}), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := listFiles(t, dst); len(got) != 1 || got[0] != "inner.zip" {
		t.Errorf("files %v", got)
	}
}

func TestExtractTruncatedCentralDirectory(t *testing.T) {
	var entries []zipEntry
	for i := 0; i < 20; i++ {
		entries = append(entries, zipEntry{name: "f" + itoa(i) + ".txt", body: strings.Repeat("y", 100)})
	}
	data := makeZip(t, entries...)
	end := bytes.LastIndex(data, []byte("PK\x05\x06"))
	cd := bytes.Index(data, []byte("PK\x01\x02"))
	for _, cut := range []int{cd + 10, (cd + end) / 2, end + 4} {
		dst, err := extractBytes(t, data[:cut], Limits{})
		wantKind(t, err, core.KindInvalid, "not a valid zip")
		if files := listFiles(t, dst); len(files) != 0 {
			t.Errorf("cut at %d: files written: %v", cut, files)
		}
	}
}

// The entry count is read from the archive's end record before the
// central directory is parsed: zip.NewReader allocates a header for every
// entry, so a download of many tiny entries would take gigabytes of
// memory before the MaxEntries check.
func TestExtractCountsEntriesBeforeParsingTheDirectory(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < 100000; i++ {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: itoa(i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	data := buf.Bytes()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := extractZip(bytes.NewReader(data), int64(len(data)), t.TempDir(), Limits{MaxEntries: 1000})
	runtime.ReadMemStats(&after)
	wantKind(t, err, core.KindTooLarge, "entries")
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("refusing %d entries allocated %d MiB (archive of %d KiB)", 100000, grew>>20, len(data)>>10)
	}
}

// A zip64 end record declares its count in 64 bits; it is read too.
func TestExtractCountsZip64Entries(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < 70000; i++ { // more than 65535 entries forces a zip64 end record
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: itoa(i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	data := buf.Bytes()
	if n, ok := declaredEntries(bytes.NewReader(data), int64(len(data))); !ok || n != 70000 {
		t.Fatalf("declared entries %d %v", n, ok)
	}
	err := extractZip(bytes.NewReader(data), int64(len(data)), t.TempDir(), Limits{MaxEntries: 1000})
	wantKind(t, err, core.KindTooLarge, "70000 entries")
}
