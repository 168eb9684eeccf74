package sqlite

import (
	"database/sql"

	"github.com/vttapp/companion/core"
)

// The handout journal (core's journal.go): one row an entry, per campaign.

// JournalEntries lists a campaign's journal entries.
func (t *tx) JournalEntries(campaignID string) ([]*core.JournalEntry, error) {
	return queryAll(t, "read the journal of campaign "+campaignID, func(rows *sql.Rows) (*core.JournalEntry, error) {
		var id string
		var doc sql.RawBytes
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, err
		}
		e := new(core.JournalEntry)
		if err := decode("journal entry", id, doc, e); err != nil {
			return nil, err
		}
		e.Campaign = campaignID
		return e, nil
	}, "SELECT id, doc FROM journal WHERE campaign = ?", campaignID)
}

// PutJournalEntry adds or replaces an entry of e.Campaign (which must
// exist).
func (t *tx) PutJournalEntry(e *core.JournalEntry) error {
	if err := t.checkWritable("PutJournalEntry"); err != nil {
		return err
	}
	if err := requireID("journal entry", e.ID); err != nil {
		return err
	}
	if err := t.requireCampaign(e.Campaign); err != nil {
		return err
	}
	doc, err := encode("journal entry", e.ID, e)
	if err != nil {
		return err
	}
	_, err = t.exec("store journal entry "+e.ID, `
		INSERT INTO journal (id, campaign, doc) VALUES (?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`, e.ID, e.Campaign, doc)
	return err
}

// DeleteJournalEntry removes an entry (the oldest, when a journal is full).
func (t *tx) DeleteJournalEntry(id string) error {
	if err := t.checkWritable("DeleteJournalEntry"); err != nil {
		return err
	}
	_, err := t.exec("delete journal entry "+id, "DELETE FROM journal WHERE id = ?", id)
	return err
}
