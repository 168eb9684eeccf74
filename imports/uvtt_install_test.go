package imports

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/uvtt"
)

// tinyPNG is the start of a PNG: enough for the importer to know the
// picture's kind.
const tinyPNG = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

// uvttDoc is a small Universal VTT map (4 x 3 cells of 100 pixels, the
// picture tinyPNG), written by the exporter; a field named with a nil
// value is left out.
func uvttDoc(t testing.TB, fields map[string]any) []byte {
	t.Helper()
	var out bytes.Buffer
	m := &core.Map{Name: "Cave", GridSize: 100, Width: 400, Height: 300}
	if err := uvtt.Write(&out, m, bytes.NewReader([]byte(tinyPNG))); err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		if v == nil {
			delete(doc, k)
		} else {
			doc[k] = v
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestInstallUVTTMapSavesImage(t *testing.T) {
	env := newTestEnv(t)
	if err := Seed(context.Background(), env.svc, env.dataDir, os.DirFS("testdata/sample"), testCollections{}); err != nil {
		t.Fatal(err)
	}
	res, err := env.in.InstallFile(context.Background(), writeTemp(t, "cave.dd2vtt", uvttDoc(t, nil)), "Cave.dd2vtt", InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindMap || res.Name != "Cave" {
		t.Errorf("result %+v", res)
	}
	env.view(t, func(tx core.Tx) error {
		m, err := tx.Map(res.ID)
		if err != nil {
			return err
		}
		campaign := "C0FFEE00-0000-4000-8000-000000000001"
		if m.Owner != campaign || m.Image != "/campaigns/"+campaign+"/maps/"+m.ID+".png" {
			t.Errorf("owner %q image %q", m.Owner, m.Image)
		}
		img, err := os.ReadFile(filepath.Join(env.dataDir, filepath.FromSlash(m.Image)))
		if err != nil || string(img) != tinyPNG {
			t.Errorf("image file: %q %v", img, err)
		}
		return nil
	})
	// A bad map leaves nothing.
	before := env.dataFiles(t)
	_, err = env.in.InstallFile(context.Background(), writeTemp(t, "bad.uvtt", uvttDoc(t, map[string]any{"format": nil})), "bad.uvtt", InstallOptions{})
	wantKind(t, err, core.KindInvalid, "format")
	if after := env.dataFiles(t); len(after) != len(before) {
		t.Errorf("files %v -> %v", before, after)
	}
}

func TestInstallUVTTMapSizeCap(t *testing.T) {
	env := newTestEnv(t)
	env.in.SetLimits(Limits{MaxMapBytes: 100})
	_, err := env.in.InstallFile(context.Background(), writeTemp(t, "big.uvtt", uvttDoc(t, nil)), "big.uvtt", InstallOptions{})
	wantKind(t, err, core.KindTooLarge, "at most 100")
}
