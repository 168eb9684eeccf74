package console

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/imports/uvtt"
	"github.com/vttapp/companion/tests/e2e"
)

// gridPicture is a 700×490 floor plan: light stone with dark lines every
// 70 px, shifted by (10, 20), as a scanned battle map has them.
func gridPicture(t *testing.T) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 700, 490))
	for y := 0; y < 490; y++ {
		for x := 0; x < 700; x++ {
			c := color.RGBA{200, 200, 200, 255}
			if (x-10)%70 == 0 || (y-20)%70 == 0 {
				c = color.RGBA{40, 40, 40, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	path := filepath.Join(t.TempDir(), "Crypt Floor.png")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// gridPixels counts the preview canvas's pixels in the grid's light
// stroke: what the game master sees of the grid over the picture.
const gridPixels = `(() => {
	const c = document.getElementById("grid-canvas");
	const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
	let n = 0;
	for (let i = 0; i < d.length; i += 4) if (d[i] > 220 && d[i+1] > 200 && d[i+2] < 170) n++;
	return n;
})()`

// The game master's side of issue 22's images, exports and backups, on the
// host console: a picture chosen on the page becomes a map waiting for its
// grid; the grid drawn over it follows the size and a drag; set, the map
// is ready and goes on the player screen; the campaign and its module
// download from the page and import into a fresh data folder as the same
// game; "Back up now" writes a backup while the server runs.
func TestHostConsoleGridExportAndBackup(t *testing.T) {
	s := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.NewPage(t, "host console", e2e.DesktopSize)
	downloads := t.TempDir()
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads,
			BrowserContextID: chromedp.FromContext(ctx).BrowserContextID,
		})
		return err
	}))
	p.Navigate(s.HostURL + "/host/")
	p.WaitFor("the grid card", `document.getElementById("grid-canvas") && document.getElementById("grid-state").textContent.includes("No map waits")`, 15*time.Second)
	p.OpenConsoleTab("maps")

	// A picture chosen in the card is imported and opened, waiting for
	// its grid, drawn with the server's default grid over it.
	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#grid-file"), []string{gridPicture(t)}))
	p.WaitFor("the new map, waiting", `document.getElementById("grid-state").dataset.pending === "1" &&
		document.getElementById("grid-state").textContent.includes("Crypt Floor") && document.getElementById("grid-canvas").dataset.gridSize`, 15*time.Second)
	var maps []struct {
		ID, Name    string
		Width       int
		GridPending bool `json:"gridPending"`
	}
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/maps", &maps)
	var mapID string
	for _, m := range maps {
		if m.Name == "Crypt Floor" && m.GridPending && m.Width == 700 {
			mapID = m.ID
		}
	}
	if mapID == "" {
		t.Fatalf("no map waiting for its grid: %+v", maps)
	}
	if status, _ := e2e.HostCall(t, s, "POST", "/host/api/screen", `{"mapId": "`+mapID+`"}`); status != 409 {
		t.Fatalf("a map waiting for its grid went on the screen: %d", status)
	}
	if d := p.Eval(`document.getElementById("grid-show").disabled`); d != true {
		t.Errorf("Show on player screen is offered for a map waiting for its grid")
	}

	// The size: a cell of 70 px, then 35 px, which draws twice the lines.
	p.Eval(`document.getElementById("grid-panel").scrollIntoView()`)
	setField := func(id string, v int) {
		p.Eval(fmt.Sprintf(`(() => { const i = document.getElementById(%q); i.value = %d; i.dispatchEvent(new Event("input")); })()`, id, v))
	}
	setField("grid-size", 70)
	p.WaitFor("the 70 px grid", `document.getElementById("grid-canvas").dataset.gridSize === "70"`, 10*time.Second)
	var at70, at35 float64
	p.EvalInto(gridPixels, &at70)
	setField("grid-size", 35)
	p.WaitFor("the 35 px grid", `document.getElementById("grid-canvas").dataset.gridSize === "35"`, 10*time.Second)
	p.EvalInto(gridPixels, &at35)
	e2e.SaveScreenshot(t, p, "grid-35")
	if at70 < 500 || at35 < 1.6*at70 {
		t.Errorf("grid pixels: %v at 70 px, %v at 35 px: halving the cell should about double the lines drawn", at70, at35)
	}
	if cells := p.Eval(`document.getElementById("grid-cells").textContent`).(string); !strings.Contains(cells, "20 × 14 cells") {
		t.Errorf("cells at 35 px: %q", cells)
	}

	// Hexes: drawn from the server's lattice, then back to squares.
	setType := func(v string) {
		p.Eval(fmt.Sprintf(`(() => { const i = document.getElementById("grid-type"); i.value = %q; i.dispatchEvent(new Event("change")); })()`, v))
		p.WaitFor("the "+v+" grid", fmt.Sprintf(`document.getElementById("grid-canvas").dataset.gridType === %q`, v), 10*time.Second)
	}
	square := p.Eval(`document.getElementById("grid-canvas").toDataURL()`)
	setType("hexPointy")
	var hexes float64
	p.EvalInto(gridPixels, &hexes)
	e2e.SaveScreenshot(t, p, "grid-hex")
	if hexes < 500 || p.Eval(`document.getElementById("grid-canvas").toDataURL()`) == square {
		t.Errorf("the hex grid is not drawn: %v grid pixels", hexes)
	}
	setType("square")

	// Dragging the picture moves the grid by as many map pixels.
	setField("grid-size", 70)
	p.WaitFor("back to 70 px", `document.getElementById("grid-canvas").dataset.gridSize === "70"`, 10*time.Second)
	var box struct{ X, Y, W, Scale float64 }
	p.EvalInto(`(() => { const r = document.getElementById("grid-canvas").getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, scale: r.width / 700}; })()`, &box)
	before := p.Eval(`document.getElementById("grid-canvas").toDataURL()`)
	x, y := box.X+box.W/2, box.Y+40
	p.Mouse(input.DispatchMouseEventTypeMousePressed, x, y, 1)
	p.Mouse(input.DispatchMouseEventTypeMouseMoved, x+15, y+10, 1)
	p.Mouse(input.DispatchMouseEventTypeMouseMoved, x+30, y+20, 1)
	p.Mouse(input.DispatchMouseEventTypeMouseReleased, x+30, y+20, 0)
	wantX, wantY := int(30/box.Scale+0.5), int(20/box.Scale+0.5)
	p.WaitFor("the dragged grid", fmt.Sprintf(`document.getElementById("grid-canvas").dataset.offset === "%d,%d"`, wantX, wantY), 10*time.Second)
	if after := p.Eval(`document.getElementById("grid-canvas").toDataURL()`); after == before {
		t.Error("the drag moved the offset but not the grid drawn")
	}

	// Aligned with the picture's lines, and set: the map is ready.
	setField("grid-offset-x", 10)
	setField("grid-offset-y", 20)
	p.WaitFor("the aligned grid", `document.getElementById("grid-canvas").dataset.offset === "10,20"`, 10*time.Second)
	e2e.SaveScreenshot(t, p, "grid-aligned")
	p.Eval(`document.getElementById("grid-set").click()`)
	p.WaitFor("the map ready", `document.getElementById("grid-state").textContent.includes("ready for the player screen") &&
		!document.getElementById("grid-show").disabled`, 10*time.Second)
	var grid struct {
		GridPending bool `json:"gridPending"`
		Grid        struct {
			Size    int `json:"gridSize"`
			OffsetX int `json:"gridOffsetX"`
			OffsetY int `json:"gridOffsetY"`
		} `json:"grid"`
	}
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/maps/"+mapID+"/grid", &grid)
	if grid.GridPending || grid.Grid.Size != 70 || grid.Grid.OffsetX != 10 || grid.Grid.OffsetY != 20 {
		t.Fatalf("the grid stored: %+v", grid)
	}
	p.Eval(`document.getElementById("grid-show").click()`)
	e2e.WaitAPI(t, s.HostURL+"/host/api/campaign", "the map on the player screen", func(c struct {
		Screen struct {
			MapID string `json:"mapId"`
		} `json:"screen"`
	}) bool {
		return c.Screen.MapID == mapID
	})
	want := e2e.GameOf(t, s)

	// Export: the campaign's link says which module it needs; both
	// download, and import into an empty server as the same game.
	p.WaitFor("the export links", `document.querySelectorAll("#export-list a").length >= 2`, 15*time.Second)
	p.Eval(`document.querySelector("#export-list [data-export^='campaign:'] a").click()`)
	p.WaitFor("the needed module named", `document.getElementById("export-msg").textContent.includes("download it too")`, 15*time.Second)
	p.Eval(`document.querySelector("#export-list [data-export^='module:'] a").click()`)
	files := waitDownloads(t, downloads, 2)
	fresh := e2e.StartServer(t, e2e.ServerOptions{Args: []string{"--empty"}})
	freshHost := strings.TrimPrefix(fresh.HostURL, "http://")
	for _, ext := range []string{".module", ".campaign"} { // the module first: the campaign's monsters come from it
		for _, f := range files {
			if strings.HasSuffix(f, ext) {
				if code, out, errOut := e2e.ImportRun(t, "import", "--host-addr", freshHost, f); code != 0 {
					t.Fatalf("import %s: %d %s %s", f, code, out, errOut)
				}
			}
		}
	}
	e2e.SameGame(t, "downloaded from the console and imported", want, e2e.GameOf(t, fresh))

	// The map open in the card leaves as a Universal VTT file for map
	// makers: its picture and grid read back.
	p.WaitFor("the Universal VTT link", `!document.getElementById("grid-uvtt").hidden`, 10*time.Second)
	p.Eval(`document.getElementById("grid-uvtt").click()`)
	var uvttFile string
	for _, f := range waitDownloads(t, downloads, 3) {
		if strings.HasSuffix(f, ".dd2vtt") {
			uvttFile = f
		}
	}
	raw, err := os.ReadFile(uvttFile)
	if err != nil {
		t.Fatalf("the Universal VTT download: %v", err)
	}
	back, err := uvtt.Parse(raw, "exported map")
	if err != nil || back.Map.GridSize != 70 || len(back.Image) == 0 {
		t.Fatalf("the Universal VTT file does not read back as the map (grid 70, a picture): %v", err)
	}

	// Back up now: a whole backup while the server runs, listed on the page.
	p.Eval(`document.getElementById("backup-now").click()`)
	p.WaitFor("the backup made", `document.getElementById("backup-msg").textContent.startsWith("Backed up")`, 60*time.Second)
	p.WaitFor("the backup listed", `document.querySelectorAll("#backup-list li").length === 1 &&
		!document.querySelector("#backup-list li").classList.contains("muted")`, 15*time.Second)
	var backups []struct{ Path string }
	e2e.ImportGetJSON(t, s.HostURL+"/host/api/backups", &backups)
	if len(backups) != 1 {
		t.Fatalf("backups: %+v", backups)
	}
	if _, err := os.Stat(filepath.Join(backups[0].Path, "backup.json")); err != nil {
		t.Errorf("the backup is not whole: %v", err)
	}
	// A video becomes a map too, its first frame drawn under the grid (a
	// WebM recorded by Chromium, the media package's test file).
	video, err := filepath.Abs(filepath.Join("..", "..", "imports", "media", "testdata", "canvas-321x187.webm"))
	if err != nil {
		t.Fatal(err)
	}
	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#grid-file"), []string{video}))
	p.WaitFor("the video map, waiting", `document.getElementById("grid-state").dataset.pending === "1" &&
		document.getElementById("grid-state").textContent.includes("canvas-321x187")`, 15*time.Second)
	// Pixels that are neither the empty stage's colour nor the grid's:
	// the video's frame.
	p.WaitFor("the video's frame drawn", `(() => {
		const c = document.getElementById("grid-canvas");
		const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) {
			const stage = Math.abs(d[i] - 0xd8) < 4 && Math.abs(d[i+1] - 0xd2) < 4 && Math.abs(d[i+2] - 0xc6) < 4;
			const line = d[i] > 220 && d[i+1] > 200 && d[i+2] < 170;
			if (!stage && !line) n++;
		}
		return n > d.length / 4 / 2;
	})()`, 15*time.Second)
	e2e.SaveScreenshot(t, p, "video-map")

	// A picture dropped on the card (a file dragged from the desktop) is
	// imported and opened the same way.
	p.Eval(`(async () => {
		const c = document.createElement("canvas");
		c.width = 140; c.height = 70;
		c.getContext("2d").fillRect(0, 0, 70, 70);
		const blob = await new Promise((ok) => c.toBlob(ok, "image/png"));
		const dt = new DataTransfer();
		dt.items.add(new File([blob], "Dropped Cellar.png", { type: "image/png" }));
		document.getElementById("grid-panel").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
	})()`)
	p.WaitFor("the dropped picture, waiting", `document.getElementById("grid-state").dataset.pending === "1" &&
		document.getElementById("grid-state").textContent.includes("Dropped Cellar") &&
		document.getElementById("grid-cells").textContent.startsWith("140×70 px")`, 15*time.Second)

	if problems := p.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console errors: %v", problems)
	}
}

// waitDownloads waits until n whole files are in dir (Chromium writes a
// download under .crdownload and renames it once whole).
func waitDownloads(t *testing.T, dir string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		entries, _ := os.ReadDir(dir)
		var whole []string
		partial := false
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".crdownload") {
				partial = true
				continue
			}
			whole = append(whole, filepath.Join(dir, e.Name()))
		}
		if len(whole) >= n && !partial {
			return whole
		}
		if time.Now().After(deadline) {
			t.Fatalf("downloads in %s: %v (want %d)", dir, entries, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
