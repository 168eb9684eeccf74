package sqlite

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/vttapp/companion/core"
)

// entityColumns are what every entity read selects, in scanEntity's order.
const entityColumns = "id, owner, revision, doc"

// scanEntity builds an entity from its document and restores the fields
// that live only in columns.
func scanEntity(rows *sql.Rows) (*core.Entity, error) {
	var id, owner string
	var revision int64
	var doc sql.RawBytes
	if err := rows.Scan(&id, &owner, &revision, &doc); err != nil {
		return nil, err
	}
	e := new(core.Entity)
	if err := decode("entity", id, doc, e); err != nil {
		return nil, err
	}
	e.Owner = owner
	e.Revision = revision
	return e, nil
}

func (t *tx) Entity(id string) (*core.Entity, error) {
	list, err := queryAll(t, "read entity "+id, scanEntity, "SELECT "+entityColumns+" FROM entities WHERE id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, notFound("entity", id)
	}
	return list[0], nil
}

// EntityBySlug returns the entity of that kind and slug; an empty kind
// matches any kind. When several match (the same slug in two modules), the
// one with the smallest id wins, so that the answer is stable.
func (t *tx) EntityBySlug(kind, slug string) (*core.Entity, error) {
	query := "SELECT " + entityColumns + " FROM entities WHERE slug = ?"
	args := []any{slug}
	if kind != "" {
		query += " AND kind = ?"
		args = append(args, kind)
	}
	list, err := queryAll(t, "read entity "+slug, scanEntity, query+" ORDER BY id LIMIT 1", args...)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		if kind == "" {
			kind = "entity"
		}
		return nil, core.NotFoundf("no %s with slug '%s'", kind, slug)
	}
	return list[0], nil
}

// Entities lists the entities matching q ordered by name (ignoring ASCII
// case), then id.
func (t *tx) Entities(q core.EntityQuery) ([]*core.Entity, error) {
	var where []string
	var args []any
	for _, f := range []struct{ column, value string }{
		{"kind", q.Kind}, {"owner", q.Owner}, {"system", q.System},
	} {
		if f.value != "" {
			where = append(where, f.column+" = ?")
			args = append(args, f.value)
		}
	}
	query := "SELECT " + entityColumns + " FROM entities"
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	return queryAll(t, "list entities", scanEntity, query+" ORDER BY name COLLATE NOCASE, id", args...)
}

// PutEntity inserts or replaces an entity and sets e.Revision to the stored
// revision (1 on the first write).
func (t *tx) PutEntity(e *core.Entity) error {
	if err := t.checkWritable("PutEntity"); err != nil {
		return err
	}
	if e == nil {
		return core.Invalidf("entity: nothing to store")
	}
	if err := requireID("entity", e.ID); err != nil {
		return err
	}
	doc, err := encode("entity", e.ID, e)
	if err != nil {
		return err
	}
	revision, err := t.upsert("store entity "+e.ID, `
		INSERT INTO entities (id, kind, system, owner, name, slug, revision, doc) VALUES (?, ?, ?, ?, ?, ?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, system = excluded.system,
			owner = excluded.owner, name = excluded.name, slug = excluded.slug,
			revision = entities.revision + 1, doc = excluded.doc
		RETURNING revision`,
		e.ID, e.Kind, e.System, e.Owner, e.Name, e.Slug, doc)
	if err != nil {
		return err
	}
	e.Revision = revision
	return nil
}

func (t *tx) DeleteEntity(id string) error {
	return t.deleteByID("DeleteEntity", "entities", "entity", id)
}

// isNoRows reports a missing row of a single-row query.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
