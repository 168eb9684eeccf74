package core

import "context"

// withoutPrivate leaves the game master's private rolls out of a list
// players read (GET /api).
func withoutPrivate(list []*Message) []*Message {
	out := list[:0:0]
	for _, m := range list {
		if !m.Private {
			out = append(out, m)
		}
	}
	return out
}

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
