package legacyxml

import (
	"archive/zip"
	"reflect"
	"strings"
	"testing"

	"github.com/vttapp/companion/internal/shareddata"
)

func TestReadModule(t *testing.T) {
	m, err := ReadModule(strings.NewReader(readFixture(t, "module.xml")), "module.xml", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "7D3A3F52-11A1-4F0C-A5B1-000000000001" || m.Version != "2" || m.Name != "Fen Crossing" || m.Slug != "fen-crossing" ||
		m.Code != "FEN" || m.Category != "adventure" || m.Image != "cover.png" || m.Author != "Companion tests" {
		t.Errorf("module %+v", m)
	}
	// Pages: top level, in a group, in a page; their parents.
	var pages []string
	for _, p := range m.Pages {
		pages = append(pages, p.ID+"<"+p.Parent)
	}
	if want := []string{"P-2<G-1", "P-3<P-1", "P-1<"}; !reflect.DeepEqual(pages, want) {
		t.Errorf("pages %v, want %v", pages, want)
	}
	if c := m.Pages[0].Content; c != `<p>The ferry waits at <a href="/map/the-ford">the ford</a>.</p>` {
		t.Errorf("page content %q", c)
	}
	if len(m.Groups) != 1 || m.Groups[0].Name != "Chapter One" || m.Groups[0].Sort != "1" {
		t.Errorf("groups %+v", m.Groups)
	}

	if len(m.Maps) != 1 {
		t.Fatalf("maps %d", len(m.Maps))
	}
	mp := m.Maps[0]
	if mp.Parent != "G-1" || mp.GridSize != 70 || mp.GridOffsetX != 5 || mp.GridOffsetY != -3.5 || mp.GridColor != "#112233" ||
		mp.GridVisible == nil || !*mp.GridVisible || mp.GridScale != 5 || mp.GridUnits != "ft" || mp.Scale != 1.5 ||
		mp.FogVisible == nil || !*mp.FogVisible || mp.LineOfSight == nil || *mp.LineOfSight || mp.Daylight == nil || *mp.Daylight != 0.25 ||
		mp.Image != "ford.png" || mp.Canvas != "ford-canvas.svg" || mp.Video != "" {
		t.Errorf("map %+v", mp)
	}
	if len(mp.Markers) != 1 || mp.Markers[0].Content.Ref != "/page/the-ferry" || !mp.Markers[0].Hidden || mp.Markers[0].Y != 200.5 || mp.Markers[0].Color != "#ff0000" {
		t.Errorf("markers %+v", mp.Markers)
	}
	tile := mp.Tiles[0]
	if tile.Rotation != 45 || *tile.Opacity != 0.5 || tile.ZIndex != 3 || !tile.Locked || tile.Layer != "object" ||
		tile.Asset.Resource != "lantern.png" || tile.Light.RadiusMax != 20 || *tile.Light.Enabled != true ||
		len(tile.Components) != 1 || tile.Components[0].Params["color"] != "#00ff00" {
		t.Errorf("tile %+v", tile)
	}
	if len(mp.Lights) != 1 || mp.Lights[0].X != 300 || mp.Lights[0].Enabled != nil {
		t.Errorf("lights %+v", mp.Lights)
	}
	if len(mp.Walls) != 2 || !reflect.DeepEqual(mp.Walls[0].Points, []float64{0, 0, 100, 0, 100, 50}) || !mp.Walls[0].Generated ||
		mp.Walls[1].Type != "door" || mp.Walls[1].Door != "locked" || mp.Walls[1].Side != "left" {
		t.Errorf("walls %+v", mp.Walls)
	}
	tok := mp.Tokens[0]
	if tok.Reference != "/monster/reed-stalker" || !tok.Hidden || tok.Rotation != 90 || tok.Vision == nil || tok.Vision.DarkRadiusMax != 60 || *tok.Vision.Light {
		t.Errorf("token %+v", tok)
	}
	if len(mp.Drawings) != 1 || mp.Drawings[0].Layer != "dm" || len(mp.Drawings[0].Points) != 4 {
		t.Errorf("drawings %+v", mp.Drawings)
	}
	// What the reader does not know is kept, never dropped.
	if len(mp.Other) != 1 || mp.Other[0].Name != "weather" || strings.TrimSpace(mp.Other[0].Text) != "rain" {
		t.Errorf("map other %+v", mp.Other)
	}
	if len(m.Other) != 1 || m.Other[0].Name != "playlist" {
		t.Errorf("module other %+v", m.Other)
	}

	if len(m.Encounters) != 1 {
		t.Fatalf("encounters %+v", m.Encounters)
	}
	enc := m.Encounters[0]
	if enc.Parent != "G-1" || len(enc.Combatants) != 2 || enc.Combatants[1].Name != "Big One" || enc.Combatants[1].Role != "hostile" ||
		enc.Combatants[0].Monster.Ref != "/monster/reed-stalker" || enc.Combatants[0].X != 450 {
		t.Errorf("encounter %+v", enc)
	}
	if len(m.Entries) != 1 || m.Entries[0].Kind != KindMonster || m.Entries[0].Element.ChildText("name") != "Ford Toad" {
		t.Errorf("entries %+v", m.Entries)
	}
}

func TestReadModuleErrorsSayWhere(t *testing.T) {
	doc := "<module>\n<map id=\"m\">\n<gridSize>seventy</gridSize>\n</map>\n</module>"
	_, err := ReadModule(strings.NewReader(doc), "module.xml", Limits{})
	wantError(t, err, false, "module.xml line 3, module/map/gridSize", `"seventy" is not a number`)
	doc = "<module><map><wall><data>1,2,3</data></wall></map></module>"
	_, err = ReadModule(strings.NewReader(doc), "module.xml", Limits{})
	wantError(t, err, false, "module/map/wall/data", "x,y pairs")
	doc = "<module><map><tile><hidden>maybe</hidden></tile></map></module>"
	_, err = ReadModule(strings.NewReader(doc), "module.xml", Limits{})
	wantError(t, err, false, "module/map/tile/hidden", "not YES or NO")
	_, err = ReadModule(strings.NewReader("<campaign/>"), "module.xml", Limits{})
	wantError(t, err, false, "root element is <campaign>, not <module>")
}

func TestReadCampaignAndPack(t *testing.T) {
	c, err := ReadCampaign(strings.NewReader(readFixture(t, "campaign.xml")), "campaign.xml", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "Fen Campaign" || len(c.Modules) != 1 || c.Modules[0].Ref != "/module/fen-crossing" ||
		len(c.Players) != 1 || c.Players[0].Ref != "/player/wren-tallow" || len(c.Pages) != 1 || c.Pages[0].Content != "<p>Notes.</p>" {
		t.Errorf("campaign %+v", c)
	}
	p, err := ReadPack(strings.NewReader(readFixture(t, "pack.xml")), "pack.xml", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var assets []string
	for _, a := range p.Assets {
		assets = append(assets, a.ID+"<"+a.Parent+":"+a.Resource)
	}
	if want := []string{"PA-3<PG-1:raft.png", "PA-1<PG-1:punt.png", "PA-2<:ripples.png"}; !reflect.DeepEqual(assets, want) {
		t.Errorf("assets %v", assets)
	}
	if p.Assets[2].FrameWidth != 64 || p.Assets[2].Duration != 1.5 || !p.Assets[2].GridAlign || p.Assets[1].Size != "1x2" {
		t.Errorf("sprite sheet %+v", p.Assets[2])
	}
	if len(p.Groups) != 1 || p.Groups[0].Name != "Boats" || p.Name != "Fen Props" {
		t.Errorf("pack %+v", p)
	}
}

func TestReadCanvasWalls(t *testing.T) {
	walls, err := ReadCanvasWalls(strings.NewReader(readFixture(t, "canvas.svg")), "ford-canvas.svg", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{
		{100, 100, 200, 100, 200, 150},
		{0, 0, 10, 0, 10, 10, 0, 10, 0, 0},
		{300, 300, 310, 320},
		{5, 5, 8, 9},
	}
	var got [][]float64
	for _, w := range walls {
		got = append(got, w.Points)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("walls %v, want %v", got, want)
	}
	if walls[0].Color != "#ff7f00" || walls[0].Type != "normal" {
		t.Errorf("wall %+v", walls[0])
	}
	_, err = ReadCanvasWalls(strings.NewReader(`<svg><path class="wall" d="M1,2 L3"/></svg>`), "c.svg", Limits{})
	wantError(t, err, false, "c.svg line 1, svg/path", "lacks its numbers")
}

// The documentation's examples as the sample archives hold them.
func TestSharedDocsModuleCampaignPack(t *testing.T) {
	open := func(archive, file string) *zip.ReadCloser {
		zr, err := zip.OpenReader(shareddata.Path(t, "legacy/"+archive))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { zr.Close() })
		return zr
	}
	zr := open("docs-example.module", ModuleFile)
	rc, err := zr.Open(ModuleFile)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadModule(rc, ModuleFile, Limits{})
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Pages) != 1 || len(m.Maps) != 1 || len(m.Encounters) != 1 || len(m.Groups) != 1 {
		t.Fatalf("pages %d maps %d encounters %d groups %d", len(m.Pages), len(m.Maps), len(m.Encounters), len(m.Groups))
	}
	mp := m.Maps[0]
	if len(mp.Markers) != 1 || len(mp.Tiles) != 4 || mp.GridSize != 50 || mp.Tiles[1].Light == nil || len(m.Encounters[0].Combatants) != 5 {
		t.Errorf("map %+v", mp)
	}
	// Every file the module names is in the archive.
	names := map[string]bool{}
	for _, f := range zr.File {
		names[f.Name] = true
	}
	for _, ref := range []string{m.Image, mp.Image, mp.Canvas, mp.Snapshot, mp.Tiles[0].Asset.Resource, mp.Tiles[3].Asset.Resource} {
		if !names[ref] {
			t.Errorf("%q is not in the archive", ref)
		}
	}
	if !strings.Contains(m.Pages[0].Content, `<img src="heading.png"`) {
		t.Errorf("page content not unescaped: %.80q", m.Pages[0].Content)
	}
	rc, err = zr.Open(mp.Canvas)
	if err != nil {
		t.Fatal(err)
	}
	walls, err := ReadCanvasWalls(rc, mp.Canvas, Limits{})
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(walls) == 0 {
		t.Error("the example canvas has walls; none read")
	}

	zr = open("docs-example.campaign", CampaignFile)
	rc, _ = zr.Open(CampaignFile)
	c, err := ReadCampaign(rc, CampaignFile, Limits{})
	rc.Close()
	if err != nil || len(c.Pages) != 1 {
		t.Errorf("campaign %+v %v", c, err)
	}
	zr = open("docs-example.pack", PackFile)
	rc, _ = zr.Open(PackFile)
	p, err := ReadPack(rc, PackFile, Limits{})
	rc.Close()
	if err != nil || len(p.Assets) != 3 || len(p.Groups) != 1 {
		t.Errorf("pack %+v %v", p, err)
	}
	for _, a := range p.Assets {
		if a.Parent != p.Groups[0].ID {
			t.Errorf("asset %s not in the group", a.Name)
		}
	}
}

// The canvas's other paths are drawings on the layer their class names; a
// drawing whose path cannot be read is counted, not an error (a wall's is).
func TestReadCanvasDrawings(t *testing.T) {
	c, err := ReadCanvas(strings.NewReader(`<svg>
  <path class="dm" d="M0,0 L10,0 L10,10" stroke="#112233" stroke-width="4" stroke-opacity="0.5" fill="#445566"/>
  <g class="token"><path d="M1,1 L2,2"/></g>
  <path class="object" d="M1,2 L3"/>
  <path class="wall" d="M0,0 L5,5"/>
</svg>`), "c.svg", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Walls) != 1 || len(c.Drawings) != 2 || c.Skipped != 1 {
		t.Fatalf("canvas %+v", c)
	}
	d := c.Drawings[0]
	if d.Layer != "dm" || d.StrokeColor != "#112233" || d.StrokeWidth != 4 || d.Opacity == nil || *d.Opacity != 0.5 || d.FillColor != "#445566" ||
		!reflect.DeepEqual(d.Points, []float64{0, 0, 10, 0, 10, 10}) {
		t.Errorf("drawing %+v", d)
	}
	// A path's class names its layer, not its group's: object by default.
	if c.Drawings[1].Layer != "object" || c.Drawings[1].FillColor != "" {
		t.Errorf("drawing %+v", c.Drawings[1])
	}
}
