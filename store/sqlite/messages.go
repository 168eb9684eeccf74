package sqlite

import (
	"database/sql"
	"time"

	"github.com/vttapp/companion/core"
)

// The campaign message log. Messages are appended, never replaced; seq (an
// AUTOINCREMENT key) is their order, so two messages created in the same
// instant still come back in the order they were added.

// AddMessage appends m to the log of m.Campaign (which must exist). An empty
// ID gets a fresh one and a zero Created the current time; both are set on m.
func (t *tx) AddMessage(m *core.Message) error {
	if err := t.checkWritable("AddMessage"); err != nil {
		return err
	}
	if m == nil {
		return core.Invalidf("message: nothing to store")
	}
	if m.Campaign == "" {
		return core.Invalidf("message: campaign is required")
	}
	if err := t.requireCampaign(m.Campaign); err != nil {
		return err
	}
	if m.ID == "" {
		m.ID = core.NewID()
	} else if taken, err := t.exists("messages", m.ID); err != nil {
		return err
	} else if taken {
		return core.Conflictf("a message with id '%s' already exists", m.ID)
	}
	if m.Created.IsZero() {
		m.Created = time.Now().UTC()
	}
	raw, err := m.StoredJSON() // without the content clients are sent, made again on every read
	if err != nil {
		return core.Invalidf("message '%s' cannot be stored: %s", m.ID, core.JSONErrorText(err))
	}
	doc := string(raw)
	_, err = t.exec("add message "+m.ID,
		"INSERT INTO messages (id, campaign, created, doc) VALUES (?, ?, ?, ?)",
		m.ID, m.Campaign, m.Created.UTC().Format(time.RFC3339Nano), doc)
	return err
}

// RecentMessages returns the n most recently added messages of the
// campaign, oldest first. n must not be negative; 0 returns none.
func (t *tx) RecentMessages(campaignID string, n int) ([]*core.Message, error) {
	if n < 0 {
		return nil, core.Invalidf("the number of messages must not be negative (got %d)", n)
	}
	if err := t.requireCampaign(campaignID); err != nil {
		return nil, err
	}
	if n == 0 {
		return []*core.Message{}, nil
	}
	return queryAll(t, "list the messages of campaign "+campaignID, scanMessage, `
		SELECT id, doc FROM (
			SELECT seq, id, doc FROM messages WHERE campaign = ? ORDER BY seq DESC LIMIT ?
		) ORDER BY seq`, campaignID, n)
}

// EachMessage calls fn with every message of the campaign, oldest first,
// one row at a time: an export streams a long log without holding it.
func (t *tx) EachMessage(campaignID string, fn func(*core.Message) error) error {
	if err := t.requireCampaign(campaignID); err != nil {
		return err
	}
	doing := "read the messages of campaign " + campaignID
	rows, err := t.query("SELECT id, doc FROM messages WHERE campaign = ? ORDER BY seq", campaignID)
	if err != nil {
		return internal(doing, err)
	}
	defer rows.Close()
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return internal(doing, err)
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return internal(doing, err)
	}
	return nil
}

func scanMessage(rows *sql.Rows) (*core.Message, error) {
	var id string
	var doc sql.RawBytes
	if err := rows.Scan(&id, &doc); err != nil {
		return nil, err
	}
	m := new(core.Message)
	if err := decode("message", id, doc, m); err != nil {
		return nil, err
	}
	return m, nil
}
