package core

import "context"

// Store is the persistent state. Every change runs in one transaction
// (Update); the callback's error rolls it back whole. store/sqlite
// implements it.
type Store interface {
	View(ctx context.Context, fn func(tx Tx) error) error
	Update(ctx context.Context, fn func(tx Tx) error) error
	Close() error
}

// EntityQuery selects entities; empty fields match everything.
type EntityQuery struct {
	Kind   string
	Owner  string
	System string
}

// PageQuery selects pages: an owner's (every owner when empty), those
// with a slug (any when empty). Content false leaves Content empty, for
// listings that show names only.
type PageQuery struct {
	Owner   string
	Slug    string
	Content bool
}

// PageShow is a page, or one section of it, that the game master showed
// players (Section "" for the whole page).
type PageShow struct {
	PageID  string `json:"pageId"`
	Section string `json:"section"`
}

// Tx is the set of reads and writes available inside a transaction. Reads of
// a missing object return a KindNotFound error. Put* inserts or replaces and
// increments the object's Revision. It is made of one small interface per
// room of the domain, so a part that needs only some of it (package pages
// reads owners, maps and the library) says so in its signatures.
type Tx interface {
	OwnersTx
	GameTx
	EntitiesTx
	MapsTx
	LibraryTx
	TablesTx
	JournalTx
	MessagesTx
	SeatsTx
}

// OwnersTx reads and writes the modules and campaigns that own content.
type OwnersTx interface {
	Module(id string) (*Module, error)
	Modules() ([]*Module, error)
	PutModule(m *Module) error
	// DeleteModule deletes the module and everything it owns (entities,
	// maps, their tokens). Its files are the caller's to remove after commit.
	DeleteModule(id string) error
	Campaign(id string) (*Campaign, error)
	Campaigns() ([]*Campaign, error)
	// PrimaryCampaign returns the primary campaign of a system.
	PrimaryCampaign(system string) (*Campaign, error)
	// PutCampaign stores a campaign; when c.Primary is set, any other
	// campaign of the same system stops being primary.
	PutCampaign(c *Campaign) error
	// DeleteCampaign deletes the campaign and everything it owns.
	DeleteCampaign(id string) error
}

// GameTx reads and writes a campaign's game: its state, its player screen and its combatants.
type GameTx interface {
	// Game returns a campaign's game state without its combatants (a fresh
	// Game when none was stored yet).
	Game(campaignID string) (*Game, error)
	PutGame(campaignID string, g *Game) error
	// Screen returns a campaign's player-screen settings (defaults when none
	// were stored yet).
	Screen(campaignID string) (*Screen, error)
	PutScreen(campaignID string, s *Screen) error
	Combatant(id string) (*Combatant, error)
	// Combatants lists a campaign's combatants by rank.
	Combatants(campaignID string) ([]*Combatant, error)
	// CombatantsOfEntity lists the combatants whose EntityID is entityID.
	CombatantsOfEntity(entityID string) ([]*Combatant, error)
	PutCombatant(c *Combatant) error
	DeleteCombatant(id string) error
}

// EntitiesTx reads and writes entities (monsters, characters, items...) and the staging of a bulk import.
type EntitiesTx interface {
	Entity(id string) (*Entity, error)
	EntityBySlug(kind, slug string) (*Entity, error)
	// Entities lists matching entities ordered by name, then id.
	Entities(q EntityQuery) ([]*Entity, error)
	PutEntity(e *Entity) error
	DeleteEntity(id string) error
	// StageEntity keeps an entity an import writes in batches, under
	// stage, where no read sees it (the same id twice in a stage is a
	// conflict); AdoptStaged moves all of stage into the entities, owned
	// by owner, in the caller's transaction (an id another entity has is
	// a conflict, and nothing moves); DropStaged forgets stage (every
	// stage when empty).
	StageEntity(stage string, e *Entity) error
	AdoptStaged(stage, owner string) (int, error)
	DropStaged(stage string) error
}

// MapsTx reads and writes maps and their tokens.
type MapsTx interface {
	// Map returns a map with its tokens.
	Map(id string) (*Map, error)
	// Maps lists the maps an owner holds (all maps when owner is empty),
	// each with its tokens.
	Maps(owner string) ([]*Map, error)
	// PutMap stores the map document; tokens in m.Tokens are stored as
	// token rows of the map (inserted or replaced).
	PutMap(m *Map) error
	DeleteMap(id string) error
	Token(id string) (*Token, error)
	Tokens(mapID string) ([]*Token, error)
	PutToken(t *Token) error
	DeleteToken(id string) error
}

// LibraryTx reads and writes the library: pages, encounters, groups,
// assets, and what a campaign's game master showed of its pages.
type LibraryTx interface {
	// Pages lists pages (see PageQuery) ordered by rank, name and id.
	Page(id string) (*Page, error)
	Pages(q PageQuery) ([]*Page, error)
	PutPage(p *Page) error
	DeletePage(id string) error
	// Encounters, Groups and Assets list an owner's (everything when owner
	// is empty) ordered by rank, name and id.
	Encounter(id string) (*Encounter, error)
	Encounters(owner string) ([]*Encounter, error)
	PutEncounter(e *Encounter) error
	DeleteEncounter(id string) error
	Group(id string) (*Group, error)
	Groups(owner string) ([]*Group, error)
	PutGroup(g *Group) error
	DeleteGroup(id string) error
	Asset(id string) (*Asset, error)
	Assets(owner string) ([]*Asset, error)
	PutAsset(a *Asset) error
	DeleteAsset(id string) error
	// PageShows lists what a campaign's game master showed its players:
	// pages whole (Section "") or some of their sections, in the order
	// they were shown. They go with the campaign or the page.
	PageShows(campaignID string) ([]PageShow, error)
	// AddPageShow records a page (section "") or one of its sections as
	// shown; showing it again changes nothing.
	AddPageShow(campaignID, pageID, section string) error
	// DeletePageShows forgets every show of a page in a campaign.
	DeletePageShows(campaignID, pageID string) error
}

// TablesTx reads and writes random tables and what a noRepeat table already gave.
type TablesTx interface {
	// Tables lists an owner's random tables (everything when owner is
	// empty) ordered by rank, name and id (tables.go).
	Table(id string) (*Table, error)
	Tables(owner string) ([]*Table, error)
	PutTable(t *Table) error
	DeleteTable(id string) error
	// TableHistory returns the rows a noRepeat table gave in a campaign
	// since it last started over; PutTableHistory replaces them.
	TableHistory(campaignID, tableID string) ([]int, error)
	PutTableHistory(campaignID, tableID string, rows []int) error
}

// JournalTx reads and writes a campaign's handout journal.
type JournalTx interface {
	// JournalEntries lists a campaign's handout journal (journal.go), in
	// no set order; PutJournalEntry adds or replaces one (by id).
	JournalEntries(campaignID string) ([]*JournalEntry, error)
	PutJournalEntry(e *JournalEntry) error
	DeleteJournalEntry(id string) error
}

// MessagesTx reads and writes a campaign's messages.
type MessagesTx interface {
	AddMessage(m *Message) error
	// RecentMessages returns the n most recent messages, oldest first.
	RecentMessages(campaignID string, n int) ([]*Message, error)
	// RecentMessagesFor returns the n most recent messages a player
	// holding seat (a seat token's hash, "" for none) may read, oldest
	// first: n counted among those alone (whisper.go).
	RecentMessagesFor(campaignID, seat string, n int) ([]*Message, error)
	// EachMessage calls fn with every message of the campaign, oldest
	// first, one at a time; an error from fn stops it and is returned.
	EachMessage(campaignID string, fn func(*Message) error) error
}

// SeatsTx reads and writes seats and the join key.
type SeatsTx interface {
	// Seats lists the seats stored for a campaign, every campaign's when
	// campaignID is empty (seats.go); a seat goes with its campaign.
	Seats(campaignID string) ([]*Seat, error)
	// PutSeat stores the seat of s.EntityID in s.Campaign (which must exist).
	PutSeat(s *Seat) error
	// Access returns the join key's state (off, with no key, when none was
	// stored yet); PutAccess replaces it.
	Access() (*JoinAccess, error)
	PutAccess(a *JoinAccess) error
}
