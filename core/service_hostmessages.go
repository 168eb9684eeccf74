package core

import "context"

// HostMessages returns the primary campaign's n most recent messages,
// oldest first, private rolls included: the host console's log.
func (s *Service) HostMessages(ctx context.Context, n int) ([]*Message, error) {
	p := s.pin()
	var out []*Message
	err := p.store.View(ctx, func(tx Tx) error {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return err
		}
		out, err = tx.RecentMessages(c.ID, n)
		return err
	})
	if out == nil {
		out = []*Message{}
	}
	return out, err
}
