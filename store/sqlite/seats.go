package sqlite

import (
	"database/sql"

	"github.com/vttapp/companion/core"
)

// Players' seats (one row per character, gone with its campaign) and the
// join key's state (one row named "join" in the access table).

// Seats lists the seats of a campaign, or of every campaign when
// campaignID is empty, by character id.
func (t *tx) Seats(campaignID string) ([]*core.Seat, error) {
	query, args := "SELECT entity_id, campaign, doc FROM seats ORDER BY entity_id", []any(nil)
	if campaignID != "" {
		query, args = "SELECT entity_id, campaign, doc FROM seats WHERE campaign = ? ORDER BY entity_id", []any{campaignID}
	}
	return queryAll(t, "list seats", scanSeat, query, args...)
}

func scanSeat(rows *sql.Rows) (*core.Seat, error) {
	var id, campaign string
	var doc []byte
	if err := rows.Scan(&id, &campaign, &doc); err != nil {
		return nil, err
	}
	s := new(core.Seat)
	if err := decode("seat", id, doc, s); err != nil {
		return nil, err
	}
	s.EntityID, s.Campaign = id, campaign
	return s, nil
}

// PutSeat stores a seat, replacing the character's.
func (t *tx) PutSeat(s *core.Seat) error {
	if err := t.checkWritable("PutSeat"); err != nil {
		return err
	}
	if s == nil {
		return core.Invalidf("seat: nothing to store")
	}
	if err := requireID("seat", s.EntityID); err != nil {
		return err
	}
	if err := t.requireCampaign(s.Campaign); err != nil {
		return err
	}
	doc, err := encode("seat", s.EntityID, s)
	if err != nil {
		return err
	}
	_, err = t.exec("store the seat "+s.EntityID, `
		INSERT INTO seats (entity_id, campaign, doc) VALUES (?, ?, ?)
		ON CONFLICT (entity_id) DO UPDATE SET campaign = excluded.campaign, doc = excluded.doc`,
		s.EntityID, s.Campaign, doc)
	return err
}

// Access returns the join key's state, off when none was stored.
func (t *tx) Access() (*core.JoinAccess, error) {
	var doc []byte
	err := t.row("SELECT doc FROM access WHERE name = 'join'").Scan(&doc)
	switch {
	case isNoRows(err):
		return &core.JoinAccess{}, nil
	case err != nil:
		return nil, internal("read the join key", err)
	}
	a := new(core.JoinAccess)
	if err := decode("access", "join", doc, a); err != nil {
		return nil, err
	}
	return a, nil
}

// PutAccess replaces the join key's state.
func (t *tx) PutAccess(a *core.JoinAccess) error {
	if err := t.checkWritable("PutAccess"); err != nil {
		return err
	}
	if a == nil {
		return core.Invalidf("access: nothing to store")
	}
	doc, err := encode("access", "join", a)
	if err != nil {
		return err
	}
	// The doc holds the keys: the error above never quotes it, and exec's
	// errors name the statement, not its arguments.
	_, err = t.exec("store the join key", `
		INSERT INTO access (name, doc) VALUES ('join', ?)
		ON CONFLICT (name) DO UPDATE SET doc = excluded.doc`, doc)
	return err
}
