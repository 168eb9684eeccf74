package sqlite

import (
	"database/sql"
	"strings"
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
		"INSERT INTO messages (id, campaign, created, doc, audience) VALUES (?, ?, ?, ?, ?)",
		m.ID, m.Campaign, m.Created.UTC().Format(time.RFC3339Nano), doc, audienceColumn(m))
	return err
}

// audienceColumn is the audience column of a message (schema 5): ” for
// one everyone reads, else '|' followed by each seat that reads it and
// '|'.
func audienceColumn(m *core.Message) string {
	if !m.Private {
		return ""
	}
	var b strings.Builder
	b.WriteByte('|')
	for _, seat := range m.Audience {
		if seat == "" || strings.Contains(seat, "|") {
			continue // not a seat's hash: nobody reads through it
		}
		b.WriteString(seat)
		b.WriteByte('|')
	}
	return b.String()
}

// audienceOf reads the audience column back into Message.Audience.
func audienceOf(column string) []string {
	if column == "" {
		return nil
	}
	var out []string
	for seat := range strings.SplitSeq(strings.Trim(column, "|"), "|") {
		if seat != "" {
			out = append(out, seat)
		}
	}
	return out
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
		SELECT id, doc, audience FROM (
			SELECT seq, id, doc, audience FROM messages WHERE campaign = ? ORDER BY seq DESC LIMIT ?
		) ORDER BY seq`, campaignID, n)
}

// RecentMessagesFor returns the n most recent messages of the campaign a
// player holding seat (the hash of a seat token; "" for none) may read,
// oldest first: those for everyone and the private ones whose audience
// holds the seat. The n are counted among those alone, so that what the
// player reads shows no gap where a private message stands.
func (t *tx) RecentMessagesFor(campaignID, seat string, n int) ([]*core.Message, error) {
	if n < 0 {
		return nil, core.Invalidf("the number of messages must not be negative (got %d)", n)
	}
	if err := t.requireCampaign(campaignID); err != nil {
		return nil, err
	}
	if n == 0 {
		return []*core.Message{}, nil
	}
	if seat == "" || strings.Contains(seat, "|") {
		seat = "-" // no audience holds it
	}
	return queryAll(t, "list the messages of campaign "+campaignID, scanMessage, `
		SELECT id, doc, audience FROM (
			SELECT seq, id, doc, audience FROM messages
			WHERE campaign = ? AND (audience = '' OR instr(audience, '|' || ? || '|') > 0)
			ORDER BY seq DESC LIMIT ?
		) ORDER BY seq`, campaignID, seat, n)
}

// EachMessage calls fn with every message of the campaign, oldest first,
// one row at a time: an export streams a long log without holding it.
func (t *tx) EachMessage(campaignID string, fn func(*core.Message) error) error {
	if err := t.requireCampaign(campaignID); err != nil {
		return err
	}
	doing := "read the messages of campaign " + campaignID
	rows, err := t.query("SELECT id, doc, audience FROM messages WHERE campaign = ? ORDER BY seq", campaignID)
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
	var id, audience string
	var doc sql.RawBytes
	if err := rows.Scan(&id, &doc, &audience); err != nil {
		return nil, err
	}
	m := new(core.Message)
	if err := decode("message", id, doc, m); err != nil {
		return nil, err
	}
	m.Audience = audienceOf(audience)
	return m, nil
}
