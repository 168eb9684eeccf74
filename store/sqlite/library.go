package sqlite

import (
	"database/sql"

	"github.com/vttapp/companion/core"
)

// The library: pages, encounters, groups and assets, each owned by a
// module or campaign (deleted with it by the owners' triggers), and the
// pages a campaign showed its players.

const libraryOrder = " ORDER BY rank, name COLLATE NOCASE, id"

// ownedRow is what the owned tables have in common: the columns of the
// row and the document.
type ownedRow struct {
	id, owner, name, slug string
	rank                  int
}

// putOwned upserts a row of an owned table (encounters, library_groups,
// assets) and returns its revision.
func (t *tx) putOwned(table, noun string, r ownedRow, v any) (int64, error) {
	if err := t.checkWritable("Put " + noun); err != nil {
		return 0, err
	}
	if err := requireID(noun, r.id); err != nil {
		return 0, err
	}
	doc, err := encode(noun, r.id, v)
	if err != nil {
		return 0, err
	}
	return t.upsert("store "+noun+" "+r.id, `
		INSERT INTO `+table+` (id, owner, name, slug, rank, revision, doc) VALUES (?, ?, ?, ?, ?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, name = excluded.name, slug = excluded.slug,
			rank = excluded.rank, revision = `+table+`.revision + 1, doc = excluded.doc
		RETURNING revision`,
		r.id, r.owner, r.name, r.slug, r.rank, doc)
}

// ownedScanner scans "id, owner, revision, doc" into a T, setting its
// owner and revision through set.
func ownedScanner[T any](noun string, set func(v *T, owner string, revision int64)) rowScanner[*T] {
	return func(rows *sql.Rows) (*T, error) {
		var id, owner string
		var revision int64
		var doc sql.RawBytes
		if err := rows.Scan(&id, &owner, &revision, &doc); err != nil {
			return nil, err
		}
		v := new(T)
		if err := decode(noun, id, doc, v); err != nil {
			return nil, err
		}
		set(v, owner, revision)
		return v, nil
	}
}

// ownedList lists an owned table's rows of owner (all when empty).
func ownedList[T any](t *tx, table, noun, owner string, scan rowScanner[*T]) ([]*T, error) {
	if owner == "" {
		return queryAll(t, "list "+table, scan, "SELECT id, owner, revision, doc FROM "+table+libraryOrder)
	}
	return queryAll(t, "list the "+table+" of "+owner, scan, "SELECT id, owner, revision, doc FROM "+table+" WHERE owner = ?"+libraryOrder, owner)
}

// ownedOne reads one row by id.
func ownedOne[T any](t *tx, table, noun, id string, scan rowScanner[*T]) (*T, error) {
	list, err := queryAll(t, "read "+noun+" "+id, scan, "SELECT id, owner, revision, doc FROM "+table+" WHERE id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, notFound(noun, id)
	}
	return list[0], nil
}

var (
	scanEncounter = ownedScanner[core.Encounter]("encounter", func(e *core.Encounter, owner string, rev int64) { e.Owner, e.Revision = owner, rev })
	scanGroup     = ownedScanner[core.Group]("group", func(g *core.Group, owner string, rev int64) { g.Owner, g.Revision = owner, rev })
	scanAsset     = ownedScanner[core.Asset]("asset", func(a *core.Asset, owner string, rev int64) { a.Owner, a.Revision = owner, rev })
)

func (t *tx) Encounter(id string) (*core.Encounter, error) {
	return ownedOne(t, "encounters", "encounter", id, scanEncounter)
}

func (t *tx) Encounters(owner string) ([]*core.Encounter, error) {
	return ownedList(t, "encounters", "encounter", owner, scanEncounter)
}

func (t *tx) PutEncounter(e *core.Encounter) error {
	if e == nil {
		return core.Invalidf("encounter: nothing to store")
	}
	rev, err := t.putOwned("encounters", "encounter", ownedRow{e.ID, e.Owner, e.Name, e.Slug, e.Rank}, e)
	if err == nil {
		e.Revision = rev
	}
	return err
}

func (t *tx) DeleteEncounter(id string) error {
	return t.deleteByID("DeleteEncounter", "encounters", "encounter", id)
}

func (t *tx) Group(id string) (*core.Group, error) {
	return ownedOne(t, "library_groups", "group", id, scanGroup)
}

func (t *tx) Groups(owner string) ([]*core.Group, error) {
	return ownedList(t, "library_groups", "group", owner, scanGroup)
}

func (t *tx) PutGroup(g *core.Group) error {
	if g == nil {
		return core.Invalidf("group: nothing to store")
	}
	rev, err := t.putOwned("library_groups", "group", ownedRow{g.ID, g.Owner, g.Name, g.Slug, g.Rank}, g)
	if err == nil {
		g.Revision = rev
	}
	return err
}

func (t *tx) DeleteGroup(id string) error {
	return t.deleteByID("DeleteGroup", "library_groups", "group", id)
}

func (t *tx) Asset(id string) (*core.Asset, error) {
	return ownedOne(t, "assets", "asset", id, scanAsset)
}

func (t *tx) Assets(owner string) ([]*core.Asset, error) {
	return ownedList(t, "assets", "asset", owner, scanAsset)
}

func (t *tx) PutAsset(a *core.Asset) error {
	if a == nil {
		return core.Invalidf("asset: nothing to store")
	}
	rev, err := t.putOwned("assets", "asset", ownedRow{a.ID, a.Owner, a.Name, a.Slug, a.Rank}, a)
	if err == nil {
		a.Revision = rev
	}
	return err
}

func (t *tx) DeleteAsset(id string) error {
	return t.deleteByID("DeleteAsset", "assets", "asset", id)
}

// Pages: the head document and the content in columns of their own.

func scanPage(withContent bool) rowScanner[*core.Page] {
	return func(rows *sql.Rows) (*core.Page, error) {
		var id, owner, content string
		var revision int64
		var head sql.RawBytes
		dest := []any{&id, &owner, &revision, &head}
		if withContent {
			dest = append(dest, &content)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		p := new(core.Page)
		if err := decode("page", id, head, p); err != nil {
			return nil, err
		}
		p.Owner, p.Revision, p.Content = owner, revision, content
		return p, nil
	}
}

func (t *tx) Page(id string) (*core.Page, error) {
	list, err := queryAll(t, "read page "+id, scanPage(true), "SELECT id, owner, revision, head, content FROM pages WHERE id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, notFound("page", id)
	}
	return list[0], nil
}

func (t *tx) Pages(q core.PageQuery) ([]*core.Page, error) {
	cols := "id, owner, revision, head"
	if q.Content {
		cols += ", content"
	}
	where, args := "", []any{}
	add := func(cond string, v string) {
		if where == "" {
			where = " WHERE " + cond
		} else {
			where += " AND " + cond
		}
		args = append(args, v)
	}
	if q.Owner != "" {
		add("owner = ?", q.Owner)
	}
	if q.Slug != "" {
		add("slug = ?", q.Slug)
	}
	return queryAll(t, "list pages", scanPage(q.Content), "SELECT "+cols+" FROM pages"+where+libraryOrder, args...)
}

func (t *tx) PutPage(p *core.Page) error {
	if err := t.checkWritable("PutPage"); err != nil {
		return err
	}
	if p == nil {
		return core.Invalidf("page: nothing to store")
	}
	if err := requireID("page", p.ID); err != nil {
		return err
	}
	head := *p
	head.Content = ""
	doc, err := encode("page", p.ID, &head)
	if err != nil {
		return err
	}
	revision, err := t.upsert("store page "+p.ID, `
		INSERT INTO pages (id, owner, name, slug, rank, revision, head, content) VALUES (?, ?, ?, ?, ?, 1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, name = excluded.name, slug = excluded.slug,
			rank = excluded.rank, revision = pages.revision + 1, head = excluded.head, content = excluded.content
		RETURNING revision`,
		p.ID, p.Owner, p.Name, p.Slug, p.Rank, doc, p.Content)
	if err != nil {
		return err
	}
	p.Revision = revision
	return nil
}

// DeletePage deletes the page; its shows go by foreign key.
func (t *tx) DeletePage(id string) error {
	return t.deleteByID("DeletePage", "pages", "page", id)
}

func scanPageShow(rows *sql.Rows) (core.PageShow, error) {
	var s core.PageShow
	err := rows.Scan(&s.PageID, &s.Section)
	return s, err
}

func (t *tx) PageShows(campaignID string) ([]core.PageShow, error) {
	return queryAll(t, "list the pages shown in campaign "+campaignID, scanPageShow,
		"SELECT page_id, section FROM page_shows WHERE campaign = ? ORDER BY seq", campaignID)
}

func (t *tx) AddPageShow(campaignID, pageID, section string) error {
	if err := t.checkWritable("AddPageShow"); err != nil {
		return err
	}
	if err := t.requireCampaign(campaignID); err != nil {
		return err
	}
	ok, err := t.exists("pages", pageID)
	if err != nil {
		return err
	}
	if !ok {
		return notFound("page", pageID)
	}
	_, err = t.exec("show page "+pageID, `INSERT INTO page_shows (campaign, page_id, section) VALUES (?, ?, ?)
		ON CONFLICT (campaign, page_id, section) DO NOTHING`, campaignID, pageID, section)
	return err
}

func (t *tx) DeletePageShows(campaignID, pageID string) error {
	if err := t.checkWritable("DeletePageShows"); err != nil {
		return err
	}
	_, err := t.exec("hide page "+pageID, "DELETE FROM page_shows WHERE campaign = ? AND page_id = ?", campaignID, pageID)
	return err
}
