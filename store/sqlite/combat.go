package sqlite

import (
	"database/sql"

	"github.com/vttapp/companion/core"
)

// A campaign's game, screen and combatants.

// newGame is the state of a campaign whose game was never stored: combat
// not started, round and turn at their first (1-based) values, nobody in
// the order.
func newGame() *core.Game {
	return &core.Game{Round: 1, Turn: 1, Combatants: []*core.Combatant{}}
}

// newScreen is the player-screen configuration of a campaign that never
// stored one: remote interaction allowed, everything else off.
func newScreen() *core.Screen {
	return &core.Screen{RemoteInteraction: true}
}

// Game returns the campaign's game state; Combatants is always empty (they
// are rows: see Combatants).
func (t *tx) Game(campaignID string) (*core.Game, error) {
	var doc []byte
	err := t.row("SELECT doc FROM games WHERE campaign = ?", campaignID).Scan(&doc)
	switch {
	case isNoRows(err):
		if err := t.requireCampaign(campaignID); err != nil {
			return nil, err
		}
		return newGame(), nil
	case err != nil:
		return nil, internal("read the game of campaign "+campaignID, err)
	}
	g := new(core.Game)
	if err := decode("game of campaign", campaignID, doc, g); err != nil {
		return nil, err
	}
	g.Combatants, g.Creatures = []*core.Combatant{}, nil
	return g, nil
}

// PutGame stores the campaign's game state without g.Combatants (store
// those with PutCombatant).
func (t *tx) PutGame(campaignID string, g *core.Game) error {
	if err := t.checkWritable("PutGame"); err != nil {
		return err
	}
	if g == nil {
		return core.Invalidf("game: nothing to store")
	}
	if err := t.requireCampaign(campaignID); err != nil {
		return err
	}
	stored := *g
	stored.Combatants, stored.Creatures = nil, nil
	doc, err := encode("game of campaign", campaignID, &stored)
	if err != nil {
		return err
	}
	_, err = t.exec("store the game of campaign "+campaignID, `
		INSERT INTO games (campaign, doc) VALUES (?, ?)
		ON CONFLICT (campaign) DO UPDATE SET doc = excluded.doc`, campaignID, doc)
	return err
}

func (t *tx) Screen(campaignID string) (*core.Screen, error) {
	var doc []byte
	err := t.row("SELECT doc FROM screens WHERE campaign = ?", campaignID).Scan(&doc)
	switch {
	case isNoRows(err):
		if err := t.requireCampaign(campaignID); err != nil {
			return nil, err
		}
		return newScreen(), nil
	case err != nil:
		return nil, internal("read the screen of campaign "+campaignID, err)
	}
	s := new(core.Screen)
	if err := decode("screen of campaign", campaignID, doc, s); err != nil {
		return nil, err
	}
	return s, nil
}

func (t *tx) PutScreen(campaignID string, s *core.Screen) error {
	if err := t.checkWritable("PutScreen"); err != nil {
		return err
	}
	if s == nil {
		return core.Invalidf("screen: nothing to store")
	}
	if err := t.requireCampaign(campaignID); err != nil {
		return err
	}
	doc, err := encode("screen of campaign", campaignID, s)
	if err != nil {
		return err
	}
	_, err = t.exec("store the screen of campaign "+campaignID, `
		INSERT INTO screens (campaign, doc) VALUES (?, ?)
		ON CONFLICT (campaign) DO UPDATE SET doc = excluded.doc`, campaignID, doc)
	return err
}

// combatantColumns are what every combatant read selects, in
// scanCombatant's order.
const combatantColumns = "id, campaign, rank, revision, doc"

func scanCombatant(rows *sql.Rows) (*core.Combatant, error) {
	var id, campaign string
	var rank int
	var revision int64
	var doc sql.RawBytes
	if err := rows.Scan(&id, &campaign, &rank, &revision, &doc); err != nil {
		return nil, err
	}
	c := new(core.Combatant)
	if err := decode("combatant", id, doc, c); err != nil {
		return nil, err
	}
	c.Campaign = campaign
	c.Rank = rank
	c.Revision = revision
	return c, nil
}

func (t *tx) combatants(doing, query string, args ...any) ([]*core.Combatant, error) {
	return queryAll(t, doing, scanCombatant, query, args...)
}

func (t *tx) Combatant(id string) (*core.Combatant, error) {
	list, err := t.combatants("read combatant "+id, "SELECT "+combatantColumns+" FROM combatants WHERE id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, notFound("combatant", id)
	}
	return list[0], nil
}

// Combatants lists the campaign's combatants by rank, then id. A campaign
// that does not exist is a not-found error, not an empty list.
func (t *tx) Combatants(campaignID string) ([]*core.Combatant, error) {
	list, err := t.combatants("list the combatants of campaign "+campaignID,
		"SELECT "+combatantColumns+" FROM combatants WHERE campaign = ? ORDER BY rank, id", campaignID)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		if err := t.requireCampaign(campaignID); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// CombatantsOfEntity lists the combatants standing for the entity, by
// campaign, rank and id (empty when there are none).
func (t *tx) CombatantsOfEntity(entityID string) ([]*core.Combatant, error) {
	return t.combatants("list the combatants of entity "+entityID,
		"SELECT "+combatantColumns+" FROM combatants WHERE entity_id = ? ORDER BY campaign, rank, id", entityID)
}

// PutCombatant inserts or replaces a combatant of c.Campaign (which must
// exist) and sets c.Revision.
func (t *tx) PutCombatant(c *core.Combatant) error {
	if err := t.checkWritable("PutCombatant"); err != nil {
		return err
	}
	if c == nil {
		return core.Invalidf("combatant: nothing to store")
	}
	if err := requireID("combatant", c.ID); err != nil {
		return err
	}
	if c.Campaign == "" {
		return core.Invalidf("combatant '%s': campaign is required", c.ID)
	}
	if err := t.requireCampaign(c.Campaign); err != nil {
		return err
	}
	doc, err := encode("combatant", c.ID, c)
	if err != nil {
		return err
	}
	revision, err := t.upsert("store combatant "+c.ID, `
		INSERT INTO combatants (id, campaign, entity_id, rank, revision, doc) VALUES (?, ?, ?, ?, 1, ?)
		ON CONFLICT (id) DO UPDATE SET campaign = excluded.campaign, entity_id = excluded.entity_id,
			rank = excluded.rank, revision = combatants.revision + 1, doc = excluded.doc
		RETURNING revision`,
		c.ID, c.Campaign, c.EntityID, c.Rank, doc)
	if err != nil {
		return err
	}
	c.Revision = revision
	return nil
}

func (t *tx) DeleteCombatant(id string) error {
	return t.deleteByID("DeleteCombatant", "combatants", "combatant", id)
}
