package imports

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

const sampleCampaign = "C0FFEE00-0000-4000-8000-000000000001"

func pngOf(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegOf(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func seededEnv(t *testing.T) *testEnv {
	env := newTestEnv(t)
	if err := Seed(context.Background(), env.svc, env.dataDir, os.DirFS("testdata/sample"), testCollections{}); err != nil {
		t.Fatal(err)
	}
	env.events = nil
	return env
}

// An image becomes a map of its size in the primary campaign, waiting for
// its grid; the file is kept as it came, under the campaign's maps/.
func TestAnImageBecomesAMapWaitingForItsGrid(t *testing.T) {
	env := seededEnv(t)
	data := jpegOf(t, 1234, 567)
	res, err := env.in.InstallFile(context.Background(), writeTemp(t, "upload", data), "Swamp Ruins.jpeg", InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindMap || res.Name != "Swamp Ruins" || !res.GridPending {
		t.Errorf("result %+v", res)
	}
	env.view(t, func(tx core.Tx) error {
		m, err := tx.Map(res.ID)
		if err != nil {
			return err
		}
		if m.Owner != sampleCampaign || m.Width != 1234 || m.Height != 567 || !m.GridPending || m.Video != "" {
			t.Errorf("map %+v", m)
		}
		if m.Image != "/campaigns/"+sampleCampaign+"/maps/"+m.ID+".jpg" {
			t.Errorf("image %q", m.Image)
		}
		got, err := os.ReadFile(filepath.Join(env.dataDir, filepath.FromSlash(m.Image)))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("the stored file differs from the upload: %v", err)
		}
		return nil
	})
	if len(env.events) != 1 || env.events[0].Name != core.EventReload {
		t.Errorf("events %v", env.events)
	}
}

// A video becomes a map whose background is the video; a destination
// module receives it in its own folder.
func TestAVideoBecomesAMapOfTheChosenModule(t *testing.T) {
	env := seededEnv(t)
	data, err := os.ReadFile("media/testdata/canvas-321x187.webm")
	if err != nil {
		t.Fatal(err)
	}
	res, err := env.in.InstallFile(context.Background(), writeTemp(t, "upload", data), "waves.webm", InstallOptions{Destination: "test-compendium"})
	if err != nil {
		t.Fatal(err)
	}
	env.view(t, func(tx core.Tx) error {
		m, err := tx.Map(res.ID)
		if err != nil {
			return err
		}
		if m.Owner != "test-compendium" || m.Width != 321 || m.Height != 187 || m.Image != "" ||
			m.Video != "/modules/test-compendium/maps/"+m.ID+".webm" || m.Name != "waves" {
			t.Errorf("map %+v", m)
		}
		mustExist(t, filepath.Join(env.dataDir, filepath.FromSlash(m.Video)))
		return nil
	})
}

// Hostile or broken pictures are refused with a reason, and leave nothing:
// no map, no file.
func TestABadPictureLeavesNothing(t *testing.T) {
	env := seededEnv(t)
	huge := pngOf(t, 1, 1)
	binary.BigEndian.PutUint32(huge[16:20], 100000)
	binary.BigEndian.PutUint32(huge[20:24], 100000)
	wide := pngOf(t, DefaultMaxImageSide+1, 1)
	cases := []struct {
		name string
		data []byte
		opt  InstallOptions
		kind core.ErrorKind
		says string
	}{
		{"giant.png", huge, InstallOptions{}, core.KindTooLarge, "100000 x 100000 pixels; a map image may be at most 16384"},
		{"wide.png", wide, InstallOptions{}, core.KindTooLarge, "16385 x 1"},
		{"cut.png", pngOf(t, 10, 10)[:20], InstallOptions{}, core.KindInvalid, "'cut.png' cannot be used as a map: PNG: the file ends inside its header"},
		{"nothing.mp4", append([]byte("\x00\x00\x00\x10ftypisom\x00\x00\x00\x00"), make([]byte, 40)...), InstallOptions{}, core.KindInvalid, "no movie header"},
		{"fine.png", pngOf(t, 10, 10), InstallOptions{Expect: KindModule}, core.KindInvalid, "the package says it is a module, but the download is an image (PNG)"},
		{"fine.png", pngOf(t, 10, 10), InstallOptions{Destination: "no-such-place"}, core.KindNotFound, "no module or campaign"},
	}
	before := env.dataFiles(t)
	for _, c := range cases {
		_, err := env.in.InstallFile(context.Background(), writeTemp(t, "upload", c.data), c.name, c.opt)
		wantKind(t, err, c.kind, c.says)
	}
	if _, _, _, maps := env.counts(t); maps != 1 {
		t.Errorf("%d maps after refused pictures, want the sample's 1", maps)
	}
	if after := env.dataFiles(t); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("files %v -> %v", before, after)
	}
	// The side limit is the importer's to set.
	env.in.SetLimits(Limits{MaxImageSide: 100})
	_, err := env.in.InstallFile(context.Background(), writeTemp(t, "upload", pngOf(t, 101, 50)), "a.png", InstallOptions{})
	wantKind(t, err, core.KindTooLarge, "at most 100 pixels a side")
}

// Recognised by its bytes, not its name: a picture named like a Universal
// VTT map is a picture, and a text named .png is nothing.
func TestPicturesAreRecognisedByTheirBytes(t *testing.T) {
	env := seededEnv(t)
	res, err := env.in.InstallFile(context.Background(), writeTemp(t, "upload", pngOf(t, 64, 32)), "odd.uvtt", InstallOptions{})
	if err != nil || !res.GridPending {
		t.Fatalf("%+v %v", res, err)
	}
	_, err = env.in.InstallFile(context.Background(), writeTemp(t, "upload", []byte("not a picture at all")), "liar.png", InstallOptions{})
	wantKind(t, err, core.KindInvalid, "or an image (PNG, JPEG, WebP, GIF) or video (MP4, WebM)")
}

// An upload through the manager (the host console's file import) takes
// the same path.
func TestUploadedPictureBecomesAMap(t *testing.T) {
	env := seededEnv(t)
	m := NewManager(Config{Service: env.svc, DataDir: env.dataDir, Collections: testCollections{}})
	defer m.Close()
	res, err := m.ImportFile(context.Background(), bytes.NewReader(pngOf(t, 300, 200)), "Keep.png", "")
	if err != nil || res.Kind != KindMap || !res.GridPending || res.Name != "Keep" {
		t.Fatalf("%+v %v", res, err)
	}
	maps, err := m.Maps(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range maps {
		if s.ID == res.ID {
			found = s.GridPending && s.Width == 300 && s.Height == 200
		}
	}
	if !found {
		t.Errorf("map rows %+v do not show the waiting map", maps)
	}
}
