package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/pages"
)

func (s Pinned) PageAt(ctx context.Context, a core.PageAddress, players bool) (*core.PageView, error) {
	return ReadStore(ctx, s.Store, func(tx core.Tx) (*core.PageView, error) {
		if a.Page == "" || (a.Scope != "" && a.Scope != core.OwnerModule && a.Scope != core.OwnerCampaign) {
			return nil, core.NotFoundf("no such page")
		}
		shows, _, err := s.PrimaryShows(tx)
		if err != nil {
			return nil, err
		}
		r := pages.NewReader(tx, players, shows)
		pages, err := r.FindPages(a.Scope, a.Owner, a.Page, "")
		if err != nil {
			return nil, err
		}
		page, err := r.FirstReadable(pages)
		if err != nil {
			return nil, err
		}
		if page == nil {
			return nil, core.NotFoundf("no page '%s'", core.Clip(a.Page))
		}
		return r.View(page)
	})
}
