package table

import (
	"context"

	"github.com/vttapp/companion/core"
)

// HostMessages returns the primary campaign's n most recent messages,
// oldest first, private rolls included: the host console's log.
func (s *TableRoom) HostMessages(ctx context.Context, n int) ([]*core.Message, error) {
	p := s.pin()
	var out []*core.Message
	err := p.Store.View(ctx, func(tx core.Tx) error {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return err
		}
		out, err = tx.RecentMessages(c.ID, n)
		return err
	})
	if out == nil {
		out = []*core.Message{}
	}
	return out, err
}
