package sqlite

import (
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/vttapp/companion/core"
)

// Random tables (core's tables.go), owned like encounters, and the rows a
// noRepeat table gave in each campaign.

var scanTable = ownedScanner[core.Table]("table", func(tb *core.Table, owner string, rev int64) { tb.Owner, tb.Revision = owner, rev })

func (t *tx) Table(id string) (*core.Table, error) {
	return ownedOne(t, "roll_tables", "table", id, scanTable)
}

func (t *tx) Tables(owner string) ([]*core.Table, error) {
	return ownedList(t, "roll_tables", "table", owner, scanTable)
}

func (t *tx) PutTable(tb *core.Table) error {
	if tb == nil {
		return core.Invalidf("table: nothing to store")
	}
	rev, err := t.putOwned("roll_tables", "table", ownedRow{tb.ID, tb.Owner, tb.Name, tb.Slug, tb.Rank}, tb)
	if err == nil {
		tb.Revision = rev
	}
	return err
}

func (t *tx) DeleteTable(id string) error {
	return t.deleteByID("DeleteTable", "roll_tables", "table", id)
}

// TableHistory returns the rows (0-based) a noRepeat table gave in the
// campaign since it last started over; none when it never rolled.
func (t *tx) TableHistory(campaignID, tableID string) ([]int, error) {
	var doc string
	err := t.row("SELECT rows FROM roll_table_history WHERE campaign = ? AND table_id = ?", campaignID, tableID).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, internal("read the history of table "+tableID, err)
	}
	var rows []int
	if err := json.Unmarshal([]byte(doc), &rows); err != nil {
		return nil, internal("read the history of table "+tableID, err)
	}
	return rows, nil
}

// PutTableHistory replaces the rows a noRepeat table gave in the campaign.
func (t *tx) PutTableHistory(campaignID, tableID string, rows []int) error {
	if err := t.checkWritable("PutTableHistory"); err != nil {
		return err
	}
	doc, err := json.Marshal(rows)
	if err != nil {
		return core.Internal(err)
	}
	_, err = t.exec("store the history of table "+tableID, `
		INSERT INTO roll_table_history (campaign, table_id, rows) VALUES (?, ?, ?)
		ON CONFLICT (campaign, table_id) DO UPDATE SET rows = excluded.rows`, campaignID, tableID, string(doc))
	return err
}
