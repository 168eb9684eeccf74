package kernel

import (
	"context"
	"slices"

	"github.com/vttapp/companion/core"
)

// PlayersJournal is the journal players read: the entries not revoked.
func PlayersJournal(all []*core.JournalEntry) *core.Journal {
	out := &core.Journal{Entries: []*core.JournalEntry{}}
	for _, e := range all {
		if !e.Revoked {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}

// SortJournal orders entries by when they were last shown.
func SortJournal(list []*core.JournalEntry) {
	slices.SortStableFunc(list, func(a, b *core.JournalEntry) int { return a.Shown.Compare(b.Shown) })
}

// HostJournal is every entry of the primary campaign's journal, the
// revoked ones included: the host console's.
func (s *Kernel) HostJournal(ctx context.Context) (*core.Journal, error) {
	p := s.Pin()
	out := &core.Journal{}
	err := p.Store.View(ctx, func(tx core.Tx) error {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return err
		}
		out.Entries, err = tx.JournalEntries(c.ID)
		return err
	})
	if out.Entries == nil {
		out.Entries = []*core.JournalEntry{}
	}
	SortJournal(out.Entries)
	return out, err
}
