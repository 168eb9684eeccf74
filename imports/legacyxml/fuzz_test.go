package legacyxml

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"
)

// fuzzLimits keep each input cheap.
var fuzzLimits = Limits{MaxBytes: 1 << 20, MaxElements: 20000, MaxDepth: 32, MaxText: 64 << 10, MaxAttrs: 32}

func addSeeds(f *testing.F, files ...string) {
	for _, name := range files {
		if data, err := os.ReadFile("testdata/" + name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`<!DOCTYPE a [<!ENTITY e "x">]><compendium>&e;</compendium>`))
	f.Add([]byte("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"windows-1252\"?><compendium><spell><name>\x93</name></spell></compendium>"))
	f.Add([]byte(`<compendium><monster><name>a</name><name>b</name><name>c</name></monster></compendium>`))
}

// checkErr: every failure is a located *Error.
func checkErr(t *testing.T, err error) {
	var xe *Error
	if err != nil && !errors.Is(err, io.EOF) && !errors.As(err, &xe) {
		t.Fatalf("error of type %T: %v", err, err)
	}
}

// FuzzCompendiumReader: any bytes are read within the limits; every entry
// converts to a JSON-encodable table; failures are located errors.
func FuzzCompendiumReader(f *testing.F) {
	addSeeds(f, "compendium.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cr, err := NewCompendiumReader(bytes.NewReader(data), "fuzz.xml", fuzzLimits)
		if err != nil {
			checkErr(t, err)
			return
		}
		for {
			e, err := cr.Next()
			if err != nil {
				checkErr(t, err)
				return
			}
			if e.Kind == "" || e.Element == nil {
				t.Fatal("an entry without kind or element")
			}
			if _, err := json.Marshal(e.Element.Table()); err != nil {
				t.Fatalf("table cannot be encoded: %v", err)
			}
			_ = e.Element.Path()
		}
	})
}

// FuzzReadModule, FuzzReadCampaign, FuzzReadPack: a value or a located error.
func FuzzReadModule(f *testing.F) {
	addSeeds(f, "module.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadModule(bytes.NewReader(data), "module.xml", fuzzLimits)
		checkErr(t, err)
		if err == nil && m == nil {
			t.Fatal("no module and no error")
		}
	})
}

func FuzzReadCampaign(f *testing.F) {
	addSeeds(f, "campaign.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadCampaign(bytes.NewReader(data), "campaign.xml", fuzzLimits)
		checkErr(t, err)
	})
}

func FuzzReadPack(f *testing.F) {
	addSeeds(f, "pack.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadPack(bytes.NewReader(data), "pack.xml", fuzzLimits)
		checkErr(t, err)
	})
}

// FuzzCanvasWalls: walls and drawings are x,y pairs of at least two
// points, drawings on a layer the application has.
func FuzzCanvasWalls(f *testing.F) {
	addSeeds(f, "canvas.svg")
	f.Add([]byte(`<svg><path class="wall" d="m1-2-3.5e2 4 H7V8zA1 2 3 4 5 6 7"/></svg>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadCanvas(bytes.NewReader(data), "c.svg", fuzzLimits)
		checkErr(t, err)
		if err != nil {
			return
		}
		for _, w := range c.Walls {
			if len(w.Points) < 4 || len(w.Points)%2 != 0 {
				t.Fatalf("wall of %d numbers", len(w.Points))
			}
		}
		for _, d := range c.Drawings {
			if len(d.Points) < 4 || len(d.Points)%2 != 0 || (d.Layer != "dm" && d.Layer != "object" && d.Layer != "token" && d.Layer != "map") {
				t.Fatalf("drawing %+v", d)
			}
		}
	})
}

// FuzzSniff never panics and finds a root only in what starts like XML.
func FuzzSniff(f *testing.F) {
	addSeeds(f, "compendium.xml", "pack.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		isXML, root := Sniff(data)
		if root != "" && !isXML {
			t.Fatalf("root %q of a file that is not XML", root)
		}
	})
}
