package sqlite

import (
	"github.com/vttapp/companion/core"
)

// Entities an import writes in batches (a compendium of a hundred
// thousand entries) while it reads its file, in a table of their own: no
// read sees them, and an id there never touches the entity of the same id
// the import may replace. One transaction adopts them all at the end (or
// they are dropped): the install is still all or nothing.

// StageEntity keeps e in stage. The same id twice in a stage is a
// conflict.
func (t *tx) StageEntity(stage string, e *core.Entity) error {
	if err := t.checkWritable("StageEntity"); err != nil {
		return err
	}
	if err := requireID("entity", e.ID); err != nil {
		return err
	}
	doc, err := encode("entity", e.ID, e)
	if err != nil {
		return err
	}
	res, err := t.exec("stage entity "+e.ID, `
		INSERT INTO staged_entities (stage, id, kind, system, name, slug, doc) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (stage, id) DO NOTHING`,
		stage, e.ID, e.Kind, e.System, e.Name, e.Slug, doc)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return core.Conflictf("entity id '%s' (%s) is made twice by this import", e.ID, e.Name)
	}
	return nil
}

// AdoptStaged moves every entity of stage into the entities, owned by
// owner, and empties the stage. An id another entity already has is a
// conflict, and nothing moves. It returns how many moved.
func (t *tx) AdoptStaged(stage, owner string) (int, error) {
	if err := t.checkWritable("AdoptStaged"); err != nil {
		return 0, err
	}
	var id, name string
	err := t.row(`SELECT s.id, s.name FROM staged_entities s JOIN entities e ON e.id = s.id WHERE s.stage = ? LIMIT 1`, stage).Scan(&id, &name)
	switch {
	case err == nil:
		return 0, core.Conflictf("entity id '%s' (%s) already belongs to other content", id, name)
	case !isNoRows(err):
		return 0, internal("check the staged entities", err)
	}
	res, err := t.exec("adopt the staged entities", `
		INSERT INTO entities (id, kind, system, owner, name, slug, revision, doc)
		SELECT id, kind, system, ?, name, slug, 1, doc FROM staged_entities WHERE stage = ?`, owner, stage)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, internal("adopt the staged entities", err)
	}
	if err := t.DropStaged(stage); err != nil {
		return 0, err
	}
	return int(n), nil
}

// DropStaged forgets the entities of stage, or of every stage when stage
// is empty (what an interrupted import left).
func (t *tx) DropStaged(stage string) error {
	if err := t.checkWritable("DropStaged"); err != nil {
		return err
	}
	if stage == "" {
		_, err := t.exec("drop every staged entity", "DELETE FROM staged_entities")
		return err
	}
	_, err := t.exec("drop the staged entities", "DELETE FROM staged_entities WHERE stage = ?", stage)
	return err
}
