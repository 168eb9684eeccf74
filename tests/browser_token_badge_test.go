package tests

import (
	"fmt"
	"image"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
)

// TestPlayerClientShowsAnElevationBadge: a token given an elevation shows
// a badge at its top right, on the player's page, with the height; set
// back to 0, the badge goes and the token looks as before. (The badge is
// made only when a token first needs one, tokens.ts.)
func TestPlayerClientShowsAnElevationBadge(t *testing.T) {
	t.Parallel()
	srv := StartServer(t, ServerOptions{})
	p := openPlayerWith(t, srv, "Badge", panelsClosed)
	id, x, y := uncoveredToken(t, p, 2, demoBrannocID, demoIlsaID, demoQuillID)
	badge := func() string {
		for _, tok := range p.state().Tokens {
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
	bx, by := p.mapToScreen(x+0.4*demoGrid, y-0.4*demoGrid)
	p.idle()
	before := saveScreenshot(t, p, "before")
	setElevation := func(e int) {
		status, raw := testkit.Do(t, "PATCH", srv.URL+"/api/tokens/"+id, "application/merge-patch+json", strings.NewReader(fmt.Sprintf(`{"elevation": %d}`, e)))
		if status != 200 {
			t.Fatalf("PATCH elevation %d: %d %s", e, status, raw)
		}
	}
	setElevation(10)
	p.waitFor("the badge", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.badge === "↑10")`, id), 10*time.Second)
	p.idle()
	with := saveScreenshot(t, p, "elevation-10")
	if d := badgeAreaDifference(before, with, bx, by); d < 60 {
		t.Errorf("with elevation 10 the token's top right (screen %.0f,%.0f) looks as before (largest difference %d): no badge drawn", bx, by, d)
	}
	setElevation(0)
	p.waitFor("the badge gone", fmt.Sprintf(`window.companionDebug.state().tokens.some(t => t.id === %q && t.badge === "")`, id), 10*time.Second)
	p.idle()
	after := saveScreenshot(t, p, "elevation-0")
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
			ca, ok1 := pixel(a, x+float64(dx), y+float64(dy))
			cb, ok2 := pixel(b, x+float64(dx), y+float64(dy))
			if ok1 && ok2 {
				largest = max(largest, colourDistance(ca, cb))
			}
		}
	}
	return largest
}
