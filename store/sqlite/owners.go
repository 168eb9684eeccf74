package sqlite

import (
	"database/sql"

	"github.com/vttapp/companion/core"
)

// Modules and campaigns: the owners of content.

func (t *tx) Module(id string) (*core.Module, error) {
	var doc []byte
	var m core.Module
	if err := t.queryRow("module", id, "SELECT doc FROM modules WHERE id = ?", []any{id}, &doc); err != nil {
		return nil, err
	}
	if err := decode("module", id, doc, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Modules lists every module ordered by name, then id.
func (t *tx) Modules() ([]*core.Module, error) {
	return queryAll(t, "list modules", scanModule, "SELECT id, doc FROM modules ORDER BY name COLLATE NOCASE, id")
}

func scanModule(rows *sql.Rows) (*core.Module, error) {
	var id string
	var doc sql.RawBytes
	if err := rows.Scan(&id, &doc); err != nil {
		return nil, err
	}
	m := new(core.Module)
	if err := decode("module", id, doc, m); err != nil {
		return nil, err
	}
	return m, nil
}

// PutModule inserts or replaces a module. A module has no Revision field,
// but its row counts its writes like every other.
func (t *tx) PutModule(m *core.Module) error {
	if err := t.checkWritable("PutModule"); err != nil {
		return err
	}
	if m == nil {
		return core.Invalidf("module: nothing to store")
	}
	if err := requireID("module", m.ID); err != nil {
		return err
	}
	doc, err := encode("module", m.ID, m)
	if err != nil {
		return err
	}
	_, err = t.upsert("store module "+m.ID, `
		INSERT INTO modules (id, system, name, slug, revision, doc) VALUES (?, ?, ?, ?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET system = excluded.system, name = excluded.name,
			slug = excluded.slug, revision = modules.revision + 1, doc = excluded.doc
		RETURNING revision`,
		m.ID, m.System, m.Name, m.Slug, doc)
	return err
}

// DeleteModule deletes the module; the trigger modules_delete_owned deletes
// its entities and maps, and the maps' tokens go by foreign key.
func (t *tx) DeleteModule(id string) error {
	return t.deleteByID("DeleteModule", "modules", "module", id)
}

func (t *tx) Campaign(id string) (*core.Campaign, error) {
	var doc []byte
	var primary bool
	if err := t.queryRow("campaign", id, "SELECT is_primary, doc FROM campaigns WHERE id = ?", []any{id}, &primary, &doc); err != nil {
		return nil, err
	}
	return decodeCampaign(id, primary, doc)
}

func decodeCampaign(id string, primary bool, doc []byte) (*core.Campaign, error) {
	c := new(core.Campaign)
	if err := decode("campaign", id, doc, c); err != nil {
		return nil, err
	}
	c.Primary = primary
	return c, nil
}

// Campaigns lists every campaign ordered by name, then id.
func (t *tx) Campaigns() ([]*core.Campaign, error) {
	return queryAll(t, "list campaigns", scanCampaign, "SELECT id, is_primary, doc FROM campaigns ORDER BY name COLLATE NOCASE, id")
}

func scanCampaign(rows *sql.Rows) (*core.Campaign, error) {
	var id string
	var primary bool
	var doc sql.RawBytes
	if err := rows.Scan(&id, &primary, &doc); err != nil {
		return nil, err
	}
	return decodeCampaign(id, primary, doc)
}

func (t *tx) PrimaryCampaign(system string) (*core.Campaign, error) {
	var id string
	var doc []byte
	err := t.row("SELECT id, doc FROM campaigns WHERE system = ? AND is_primary", system).Scan(&id, &doc)
	if isNoRows(err) {
		return nil, core.NotFoundf("no primary campaign for system '%s'", system)
	}
	if err != nil {
		return nil, internal("read the primary campaign of "+system, err)
	}
	return decodeCampaign(id, true, doc)
}

// PutCampaign inserts or replaces a campaign. When c.Primary is set, the
// other campaigns of its system stop being primary (the partial unique index
// campaigns_one_primary guarantees it). Campaign has no Revision field; the
// row's revision counts writes, demotions included.
func (t *tx) PutCampaign(c *core.Campaign) error {
	if err := t.checkWritable("PutCampaign"); err != nil {
		return err
	}
	if c == nil {
		return core.Invalidf("campaign: nothing to store")
	}
	if err := requireID("campaign", c.ID); err != nil {
		return err
	}
	doc, err := encode("campaign", c.ID, c)
	if err != nil {
		return err
	}
	if c.Primary {
		if _, err := t.exec("demote the primary campaign of "+c.System, `
			UPDATE campaigns SET is_primary = 0, revision = revision + 1
			WHERE system = ? AND id <> ? AND is_primary`, c.System, c.ID); err != nil {
			return err
		}
	}
	_, err = t.upsert("store campaign "+c.ID, `
		INSERT INTO campaigns (id, system, name, slug, is_primary, revision, doc) VALUES (?, ?, ?, ?, ?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET system = excluded.system, name = excluded.name,
			slug = excluded.slug, is_primary = excluded.is_primary,
			revision = campaigns.revision + 1, doc = excluded.doc
		RETURNING revision`,
		c.ID, c.System, c.Name, c.Slug, c.Primary, doc)
	return err
}

// DeleteCampaign deletes the campaign. Its game, screen, combatants and
// messages go by foreign key; the trigger campaigns_delete_owned deletes its
// entities and maps, and the maps' tokens go by foreign key.
func (t *tx) DeleteCampaign(id string) error {
	return t.deleteByID("DeleteCampaign", "campaigns", "campaign", id)
}
