package engine

import (
	"context"

	"github.com/vttapp/companion/core"
)

// PageAt renders the page a URL names as players may read it: only a page
// the game master showed them (in the primary campaign), and of it only
// what was shown. Any other page does not exist for them.
func (p PlayerAccess) PageAt(ctx context.Context, a core.PageAddress) (*core.PageView, error) {
	return p.s.kernel.Pin().PageAt(ctx, a, true)
}
