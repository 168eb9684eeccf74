package player

import (
	"fmt"
	"image"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// TestPlayerClientShowsAnElevationBadge: a token given an elevation shows
// a badge at its top right, on the player's page, with the height; set
// back to 0, the badge goes and the token looks as before. (The badge is
// made only when a token first needs one, tokens.ts.)
func TestPlayerClientShowsAnElevationBadge(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.OpenPlayerWith(t, srv, "Badge", e2e.PanelsClosed)
	id, x, y := e2e.UncoveredToken(t, p, 2, e2e.DemoBrannocID, e2e.DemoIlsaID, e2e.DemoQuillID)
	badge := func() string {
		for _, tok := range p.State().Tokens {
			if tok.ID == id {
				return tok.Badge
			}
		}
		return "?"
	}
	if b := badge(); b != "" {
		t.Fatalf("token %s shows badge %q before any elevation", id, b)
	}
	// Where the badge sits: the token's top-right, a tenth of a cell in.
	bx, by := p.MapToScreen(x+0.4*e2e.DemoGrid, y-0.4*e2e.DemoGrid)
	p.Idle()
	before := e2e.SaveScreenshot(t, p, "before")
	setElevation := func(e int) {
		status, raw := testkit.Do(t, "PATCH", srv.URL+"/api/tokens/"+id, "application/merge-patch+json", strings.NewReader(fmt.Sprintf(`{"elevation": %d}`, e)))
		if status != 200 {
			t.Fatalf("PATCH elevation %d: %d %s", e, status, raw)
		}
	}
	setElevation(10)
	p.WaitFor("the badge", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.badge === "↑10")`, id), 10*time.Second)
	p.Idle()
	with := e2e.SaveScreenshot(t, p, "elevation-10")
	if d := badgeAreaDifference(before, with, bx, by); d < 60 {
		t.Errorf("with elevation 10 the token's top right (screen %.0f,%.0f) looks as before (largest difference %d): no badge drawn", bx, by, d)
	}
	setElevation(0)
	p.WaitFor("the badge gone", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.badge === "")`, id), 10*time.Second)
	p.Idle()
	after := e2e.SaveScreenshot(t, p, "elevation-0")
	if d := badgeAreaDifference(before, after, bx, by); d > 24 {
		t.Errorf("back at elevation 0 the token's top right differs from before by %d: the badge stayed", d)
	}
}

// badgeAreaDifference is the largest colour distance between a and b over
// the 9x9 pixels around (x, y).
func badgeAreaDifference(a, b image.Image, x, y float64) int {
	largest := 0
	for dy := -4; dy <= 4; dy++ {
		for dx := -4; dx <= 4; dx++ {
			ca, ok1 := e2e.Pixel(a, x+float64(dx), y+float64(dy))
			cb, ok2 := e2e.Pixel(b, x+float64(dx), y+float64(dy))
			if ok1 && ok2 {
				largest = max(largest, e2e.ColourDistance(ca, cb))
			}
		}
	}
	return largest
}
