package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vttapp/companion/core"
)

// tx implements core.Tx on one SQL transaction. The methods are grouped by
// object in owners.go (modules, campaigns), entities.go, combat.go (game,
// screen, combatants), maps.go (maps, tokens) and messages.go. Like the
// transaction under it, a tx belongs to the goroutine running fn and is
// dead once View or Update returns.
type tx struct {
	ctx      context.Context
	q        *sql.Tx
	writable bool
	stmts    *stmtCache
	missed   []string // queries to prepare after the transaction
}

var _ core.Tx = (*tx)(nil)

// checkWritable refuses a write inside View with an error that names the
// mistake (the read-only connection would fail with a vaguer one).
func (t *tx) checkWritable(method string) error {
	if !t.writable {
		return core.Internal(fmt.Errorf("store: %s called inside View; writes need Update", method))
	}
	return nil
}

func (t *tx) exec(doing, query string, args ...any) (sql.Result, error) {
	res, err := t.execStmt(query, args...)
	if err != nil {
		return nil, internal(doing, err)
	}
	return res, nil
}

// upsert runs an INSERT ... RETURNING revision and returns the new revision.
func (t *tx) upsert(doing, query string, args ...any) (int64, error) {
	var revision int64
	if err := t.row(query, args...).Scan(&revision); err != nil {
		return 0, internal(doing, err)
	}
	return revision, nil
}

// deleteByID deletes the row of table with that id; noun names the object
// in the not-found message.
func (t *tx) deleteByID(method, table, noun, id string) error {
	if err := t.checkWritable(method); err != nil {
		return err
	}
	res, err := t.exec("delete "+noun+" "+id, "DELETE FROM "+table+" WHERE id = ?", id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return internal("delete "+noun+" "+id, err)
	}
	if n == 0 {
		return notFound(noun, id)
	}
	return nil
}

// exists reports whether table has a row with that id.
func (t *tx) exists(table, id string) (bool, error) {
	var one int
	err := t.row("SELECT 1 FROM "+table+" WHERE id = ?", id).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, internal("look up "+table, err)
	}
	return true, nil
}

// requireCampaign returns a not-found error unless the campaign exists.
func (t *tx) requireCampaign(id string) error {
	ok, err := t.exists("campaigns", id)
	if err != nil {
		return err
	}
	if !ok {
		return notFound("campaign", id)
	}
	return nil
}

// queryRow runs a single-row query and scans it; a missing row becomes the
// not-found error of noun and id.
func (t *tx) queryRow(noun, id, query string, args []any, dest ...any) error {
	err := t.row(query, args...).Scan(dest...)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return notFound(noun, id)
	case err != nil:
		return internal("read "+noun+" "+id, err)
	}
	return nil
}

func notFound(noun, id string) error {
	return core.NotFoundf("no %s with id '%s'", noun, id)
}

// encode marshals an object's document. Failure means the caller handed us
// something JSON cannot hold (a NaN, a channel in Data...).
func encode(noun, id string, v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", core.Invalidf("%s '%s' cannot be stored: %s", noun, id, core.JSONErrorText(err))
	}
	return string(b), nil
}

// decode unmarshals a stored document; failure means a damaged database.
func decode(noun, id string, doc []byte, v any) error {
	if err := json.Unmarshal(doc, v); err != nil {
		return core.Internal(fmt.Errorf("store: the stored document of %s %s is damaged: %w", noun, id, err))
	}
	return nil
}

// requireID validates the id of an object about to be written.
func requireID(noun, id string) error {
	if id == "" {
		return core.Invalidf("%s: id is required", noun)
	}
	return nil
}
