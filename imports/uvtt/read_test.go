package uvtt

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/shareddata"
)

// countWalls splits a map's walls into plain walls, doors and windows.
func countWalls(m *core.Map) (walls, doors, windows int) {
	for _, w := range m.Walls {
		switch {
		case w.IsDoor():
			doors++
		case w.Type == core.WallWindow:
			windows++
		default:
			walls++
		}
	}
	return
}

// The real samples import with the right numbers of walls, doors, windows
// and lights (README of the shared data and UVTT-NOTES.md).
func TestParseUVTTRealSamples(t *testing.T) {
	for _, tc := range []struct {
		file                          string
		ext                           string
		width, height, grid           int
		walls, doors, windows, lights int
	}{
		// format 0.3, origin (2,1): 4 walls + 1 object outline, a door and a window, 2 lights.
		{"imagix-uvtt2fgu-sampleMap.dd2vtt", ".png", 2560, 2560, 256, 5, 1, 1, 2},
		// 9 walls + 2 object outlines, 3 doors, 1 light.
		{"oganm-dd2vtt_importer-test.dd2vtt", ".png", 1280, 1280, 64, 11, 3, 0, 1},
		// format 0.2, no objects_line_of_sight, 6 diagonal doors.
		{"mbround18-headmasters-quarters.v0.2.dd2vtt", ".png", 1280, 1280, 128, 6, 6, 0, 0},
		// WebP image, 35 walls, 5 doors, 2 lights.
		{"mbround18-the-litch-and-his-tomb.webp.dd2vtt", ".webp", 6144, 3456, 128, 35, 5, 0, 2},
		// origin (46,41): of 61 walls and 41 portals only what lies in the region stays.
		{"mbround18-blue-tower-base.origin-offset.dd2vtt", ".png", 1280, 1536, 128, 9, 4, 0, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(shareddata.Path(t, "uvtt/"+tc.file))
			if err != nil {
				t.Fatal(err)
			}
			um, err := Parse(data, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			m := um.Map
			if um.ImageExt != tc.ext || m.Width != tc.width || m.Height != tc.height || m.GridSize != tc.grid {
				t.Errorf("image %s %dx%d grid %d", um.ImageExt, m.Width, m.Height, m.GridSize)
			}
			walls, doors, windows := countWalls(m)
			if walls != tc.walls || doors != tc.doors || windows != tc.windows || len(m.Lights) != tc.lights {
				t.Errorf("walls %d doors %d windows %d lights %d; want %d %d %d %d", walls, doors, windows, len(m.Lights), tc.walls, tc.doors, tc.windows, tc.lights)
			}
			for _, w := range m.Walls {
				for i := 0; i < len(w.Data); i += 2 {
					if w.Data[i] < 0 || w.Data[i] > float64(m.Width) || w.Data[i+1] < 0 || w.Data[i+1] > float64(m.Height) {
						t.Fatalf("wall point (%v,%v) outside the %dx%d map", w.Data[i], w.Data[i+1], m.Width, m.Height)
					}
				}
			}
			if m.Name != tc.file { // the name as given: the importer passes the file's, without its extension
				t.Errorf("name %q", m.Name)
			}
		})
	}
}

func TestParseUVTTRefusesTheNonstandardSample(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path(t, "uvtt/bytebard97-prismatic_ballroom_main.NONSTANDARD.uvtt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err = Parse(data, "ballroom.uvtt"); core.KindOf(err) != core.KindInvalid || !strings.Contains(err.Error(), "format 1.0") {
		t.Fatalf("the nonstandard sample: %v, want an invalid error naming format 1.0", err)
	}
}

// Imagix sample: the door sits at x=7 in grid units, origin x=2, 256 px per
// cell, so it lands at x=(7-2)*256=1280; its light colour ffeccd8b is ARGB.
func TestParseUVTTImagixGeometry(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path(t, "uvtt/imagix-uvtt2fgu-sampleMap.dd2vtt"))
	if err != nil {
		t.Fatal(err)
	}
	um, err := Parse(data, "x.dd2vtt")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range um.Map.Walls {
		if w.IsDoor() {
			want := []float64{1280, 384, 1280, 640}
			if !equalFloats(w.Data, want) || w.Door != core.DoorClosed {
				t.Errorf("door %v %s, want %v closed", w.Data, w.Door, want)
			}
		}
	}
	l := um.Map.Lights[0]
	if l.Color != "#eccd8b" || !equalFloats([]float64{l.X, l.Y}, []float64{(8.570312 - 2) * 256, (9 - 1) * 256}) || l.RadiusMax != 25 {
		t.Errorf("light %+v", l)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if d := a[i] - b[i]; d > 0.01 || d < -0.01 {
			return false
		}
	}
	return true
}

var (
	tinyPNG  = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	tinyWebP = "RIFF\x10\x00\x00\x00WEBPVP8 "
)

// uvttDoc builds a small Universal VTT document; fields override defaults.
func uvttDoc(t *testing.T, fields map[string]any) []byte {
	t.Helper()
	doc := map[string]any{
		"format": 0.3,
		"resolution": map[string]any{
			"map_origin": map[string]any{"x": 0, "y": 0}, "map_size": map[string]any{"x": 4, "y": 3}, "pixels_per_grid": 100,
		},
		"line_of_sight": []any{}, "portals": []any{}, "lights": []any{},
		"image": base64.StdEncoding.EncodeToString([]byte(tinyPNG)),
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

func pt(x, y float64) map[string]any { return map[string]any{"x": x, "y": y} }

func TestParseUVTTSmallFiles(t *testing.T) {
	data := uvttDoc(t, map[string]any{
		"format":     0.2,
		"resolution": map[string]any{"map_origin": pt(1, 1), "map_size": pt(4, 3), "pixels_per_grid": 100},
		"line_of_sight": []any{
			[]any{pt(1, 1), pt(5, 1)},                      // top edge
			[]any{pt(0, 2), pt(3, 2)},                      // starts left of the map: clipped at x=0
			[]any{pt(2, 0), pt(2, 2), pt(10, 2), pt(3, 3)}, // leaves the map and comes back: two pieces
			[]any{pt(-5, -5), pt(-1, -1)},                  // wholly outside: dropped
		},
		"objects_line_of_sight": []any{[]any{pt(2, 2), pt(3, 3)}},
		"portals": []any{
			map[string]any{"position": pt(2, 3), "bounds": []any{pt(2, 2.5), pt(2, 3.5)}, "rotation": 1.57, "closed": true, "freestanding": false},
			map[string]any{"position": pt(3, 3), "bounds": []any{pt(3, 2.5), pt(3, 3.5)}, "rotation": 1.57, "closed": false, "freestanding": false},
			map[string]any{"position": pt(30, 30), "bounds": []any{pt(30, 29.5), pt(30, 30.5)}, "closed": true},
		},
		"lights": []any{
			map[string]any{"position": pt(2, 2), "range": 4, "intensity": 0.5, "color": "80ff0000", "shadows": true},
			map[string]any{"position": pt(40, 2), "range": 4, "intensity": 1, "color": "ffffffff"},
		},
		"environment": map[string]any{"baked_lighting": false, "ambient_light": "ff808080"},
		"image":       base64.StdEncoding.EncodeToString([]byte(tinyWebP)),
	})
	um, err := Parse(data, "Small Cave")
	if err != nil {
		t.Fatal(err)
	}
	m := um.Map
	if um.ImageExt != ".webp" || m.Name != "Small Cave" || m.Width != 400 || m.Height != 300 || m.GridSize != 100 {
		t.Fatalf("map %s %q %dx%d", um.ImageExt, m.Name, m.Width, m.Height)
	}
	if m.X != 0 || m.Y != 0 {
		// The viewport offset the clients read: the centre shown is
		// x/zoom + width/2, so an imported map opens centred at 0, 0.
		t.Fatalf("map x, y = %v, %v, want the viewport offset 0, 0", m.X, m.Y)
	}
	var got [][]float64
	for _, w := range m.Walls {
		if w.Type == core.WallNormal {
			got = append(got, w.Data)
		}
	}
	want := [][]float64{
		{0, 0, 400, 0},
		{0, 100, 200, 100},
		{100, 0, 100, 100, 400, 100},
		{400, 171.43, 200, 200},
		{100, 100, 200, 200},
	}
	if len(got) != len(want) {
		t.Fatalf("walls %v, want %v", got, want)
	}
	for i := range want {
		if !equalFloats(got[i], want[i]) {
			t.Errorf("wall %d: %v, want %v", i, got[i], want[i])
		}
	}
	_, doors, windows := countWalls(m)
	if doors != 1 || windows != 1 {
		t.Errorf("doors %d windows %d", doors, windows)
	}
	if len(m.Lights) != 1 {
		t.Fatalf("lights %+v", m.Lights)
	}
	if l := m.Lights[0]; l.Color != "#ff0000" || l.X != 100 || l.Y != 100 || l.Opacity != 0.5 || l.RadiusMax != 20 {
		t.Errorf("light %+v", l)
	}
	if m.LosDaylight != 0.5 {
		t.Errorf("daylight %v", m.LosDaylight)
	}
}

func TestParseUVTTRefusesInvalidFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"format missing", uvttDoc(t, map[string]any{"format": nil}), "'format' field is missing"},
		{"format a string", uvttDoc(t, map[string]any{"format": "0.3"}), "must be a number"},
		{"format 1.0", uvttDoc(t, map[string]any{"format": 1.0}), "unsupported"},
		{"image a path", uvttDoc(t, map[string]any{"image": "modules/maps/ballroom.webp"}), "not base64 image data"},
		{"image not an image", uvttDoc(t, map[string]any{"image": base64.StdEncoding.EncodeToString([]byte("GIF89a..."))}), "neither PNG"},
		{"image missing", uvttDoc(t, map[string]any{"image": nil}), "no image"},
		{"no resolution", uvttDoc(t, map[string]any{"resolution": nil}), "pixels_per_grid"},
		{"zero grid", uvttDoc(t, map[string]any{"resolution": map[string]any{"map_size": pt(4, 3), "pixels_per_grid": 0}}), "pixels_per_grid"},
		{"not an object", []byte(`[1,2]`), "JSON object"},
		{"broken JSON", []byte(`{"format": 0.3,`), "not a valid"},
	} {
		_, err := Parse(tc.data, "x.uvtt")
		if err == nil || core.KindOf(err) != core.KindInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an invalid error containing %q", tc.name, err, tc.want)
		}
	}
	_, err := Parse(uvttDoc(t, map[string]any{"resolution": map[string]any{"map_size": pt(1e6, 3), "pixels_per_grid": 100}}), "x.uvtt")
	if core.KindOf(err) != core.KindTooLarge || !strings.Contains(err.Error(), "pixels") {
		t.Fatalf("a map of a million cells: %v, want too large", err)
	}
}
