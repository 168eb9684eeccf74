package sqlite

import (
	"database/sql"

	"github.com/vttapp/companion/core"
)

// Maps and their tokens. A map's document is stored without its tokens;
// each token is a row of its own (tokens move many times a second, a move
// must not rewrite the whole map) and is put back into Map.Tokens on read.

const mapColumns = "id, owner, revision, doc"

func scanMap(rows *sql.Rows) (*core.Map, error) {
	var id, owner string
	var revision int64
	var doc sql.RawBytes
	if err := rows.Scan(&id, &owner, &revision, &doc); err != nil {
		return nil, err
	}
	m := new(core.Map)
	if err := decode("map", id, doc, m); err != nil {
		return nil, err
	}
	m.Owner = owner
	m.Revision = revision
	m.Tokens = []*core.Token{}
	return m, nil
}

func (t *tx) Map(id string) (*core.Map, error) {
	maps, err := t.maps("read map "+id, "SELECT "+mapColumns+" FROM maps WHERE id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(maps) == 0 {
		return nil, notFound("map", id)
	}
	m := maps[0]
	if m.Tokens, err = t.Tokens(id); err != nil {
		return nil, err
	}
	return m, nil
}

// Maps lists the maps of owner (every map when owner is empty) ordered by
// rank, name and id, each with its tokens.
func (t *tx) Maps(owner string) ([]*core.Map, error) {
	mapQuery := "SELECT " + mapColumns + " FROM maps ORDER BY rank, name COLLATE NOCASE, id"
	tokenQuery := "SELECT " + tokenColumns + " FROM tokens ORDER BY seq"
	var args []any
	if owner != "" {
		mapQuery = "SELECT " + mapColumns + " FROM maps WHERE owner = ? ORDER BY rank, name COLLATE NOCASE, id"
		tokenQuery = "SELECT " + tokenColumns + " FROM tokens WHERE map_id IN (SELECT id FROM maps WHERE owner = ?) ORDER BY seq"
		args = []any{owner}
	}
	maps, err := t.maps("list the maps of "+owner, mapQuery, args...)
	if err != nil || len(maps) == 0 {
		return maps, err
	}
	byID := make(map[string]*core.Map, len(maps))
	for _, m := range maps {
		byID[m.ID] = m
	}
	tokens, err := t.tokens("list the tokens of the maps of "+owner, tokenQuery, args...)
	if err != nil {
		return nil, err
	}
	for _, tok := range tokens {
		if m := byID[tok.MapID]; m != nil {
			m.Tokens = append(m.Tokens, tok)
		}
	}
	return maps, nil
}

func (t *tx) maps(doing, query string, args ...any) ([]*core.Map, error) {
	return queryAll(t, doing, scanMap, query, args...)
}

// PutMap inserts or replaces the map document and sets m.Revision; every
// token of m.Tokens is inserted or replaced as a row of the map (its MapID
// and Revision are set). Tokens of the map that m.Tokens does not list are
// left as they are: remove them with DeleteToken.
func (t *tx) PutMap(m *core.Map) error {
	if err := t.checkWritable("PutMap"); err != nil {
		return err
	}
	if m == nil {
		return core.Invalidf("map: nothing to store")
	}
	if err := requireID("map", m.ID); err != nil {
		return err
	}
	for i, tok := range m.Tokens {
		if tok == nil {
			return core.Invalidf("map '%s': token %d is null", m.ID, i+1)
		}
		if tok.ID == "" {
			return core.Invalidf("map '%s': token %d has no id", m.ID, i+1)
		}
	}
	stored := *m
	stored.Tokens = nil
	doc, err := encode("map", m.ID, &stored)
	if err != nil {
		return err
	}
	revision, err := t.upsert("store map "+m.ID, `
		INSERT INTO maps (id, owner, name, slug, rank, revision, doc) VALUES (?, ?, ?, ?, ?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, name = excluded.name,
			slug = excluded.slug, rank = excluded.rank, revision = maps.revision + 1, doc = excluded.doc
		RETURNING revision`,
		m.ID, m.Owner, m.Name, m.Slug, m.Rank, doc)
	if err != nil {
		return err
	}
	for _, tok := range m.Tokens {
		tok.MapID = m.ID
		if err := t.putToken(tok); err != nil {
			return err
		}
	}
	m.Revision = revision
	return nil
}

func (t *tx) DeleteMap(id string) error {
	return t.deleteByID("DeleteMap", "maps", "map", id)
}

const tokenColumns = "id, map_id, revision, doc"

func scanToken(rows *sql.Rows) (*core.Token, error) {
	var id, mapID string
	var revision int64
	var doc sql.RawBytes
	if err := rows.Scan(&id, &mapID, &revision, &doc); err != nil {
		return nil, err
	}
	tok := new(core.Token)
	if err := decode("token", id, doc, tok); err != nil {
		return nil, err
	}
	tok.MapID = mapID
	tok.Revision = revision
	return tok, nil
}

func (t *tx) tokens(doing, query string, args ...any) ([]*core.Token, error) {
	return queryAll(t, doing, scanToken, query, args...)
}

func (t *tx) Token(id string) (*core.Token, error) {
	list, err := t.tokens("read token "+id, "SELECT "+tokenColumns+" FROM tokens WHERE id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, notFound("token", id)
	}
	return list[0], nil
}

// Tokens lists the map's tokens in the order they were first stored. A map
// that does not exist is a not-found error, not an empty list.
func (t *tx) Tokens(mapID string) ([]*core.Token, error) {
	list, err := t.tokens("list the tokens of map "+mapID,
		"SELECT "+tokenColumns+" FROM tokens WHERE map_id = ? ORDER BY seq", mapID)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		ok, err := t.exists("maps", mapID)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, notFound("map", mapID)
		}
	}
	return list, nil
}

// PutToken inserts or replaces a token of tok.MapID (which must exist) and
// sets tok.Revision.
func (t *tx) PutToken(tok *core.Token) error {
	if err := t.checkWritable("PutToken"); err != nil {
		return err
	}
	if tok == nil {
		return core.Invalidf("token: nothing to store")
	}
	if err := requireID("token", tok.ID); err != nil {
		return err
	}
	if tok.MapID == "" {
		return core.Invalidf("token '%s': map id is required", tok.ID)
	}
	ok, err := t.exists("maps", tok.MapID)
	if err != nil {
		return err
	}
	if !ok {
		return notFound("map", tok.MapID)
	}
	return t.putToken(tok)
}

// putToken writes a token whose map is known to exist.
func (t *tx) putToken(tok *core.Token) error {
	doc, err := encode("token", tok.ID, tok)
	if err != nil {
		return err
	}
	revision, err := t.upsert("store token "+tok.ID, `
		INSERT INTO tokens (id, map_id, revision, doc) VALUES (?, ?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET map_id = excluded.map_id,
			revision = tokens.revision + 1, doc = excluded.doc
		RETURNING revision`,
		tok.ID, tok.MapID, doc)
	if err != nil {
		return err
	}
	tok.Revision = revision
	return nil
}

func (t *tx) DeleteToken(id string) error {
	return t.deleteByID("DeleteToken", "tokens", "token", id)
}
