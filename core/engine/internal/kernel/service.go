package kernel

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
)

// Kernel is what the engine's rooms share: the store, the rules, the
// write path and what the engine keeps in memory. Every change runs in one
// store transaction and its events are published after the commit, under a
// write lock, so every subscriber sees events in commit order.
type Kernel struct {
	Store  core.Store
	Events core.Publisher
	// ruleSource answers with the loaded system's rules, which a reload
	// may swap at any moment: read it only through Pin.
	ruleSource core.Rules
	Roller     core.Roller
	Now        func() time.Time
	LiveState  *Live
	// OnPublished hears every event the service publishes, in commit
	// order: the drag tracker (drag.go) ends a drag on it (dragsweep.go).
	OnPublished func(events []core.Event)
	// MarkMoves follows the live moves of marks, for the host's veto
	// (markmoves.go).
	MarkMoves MarkMoves
	Log       *slog.Logger
	// Access is the join key, in memory (access.go); seats the seats by
	// the hash of their token (seatindex.go).
	Access      access
	SeatsByHash seatIndex
	// MapFiles indexes the files maps show, for the static routes (mapfiles.go).
	MapFiles mapFileIndex
	// screenMap caches the map on the player screen, for the hub (seatmaps.go).
	screenMap screenMapCache
	// Messages counts each device's messages (messagebudget.go).
	Messages *chat.Budget
	// seatNews paces seatsUpdated (seatnews.go).
	seatNews seatNews

	mu sync.Mutex // the commit lock: serialises commit + publish (see write)

	// commits counts committed writes; read caches key on it.
	commits atomic.Uint64
}

// Config wires a Kernel. Now defaults to time.Now; Live defaults to
// fresh live state with remote interaction on; Log (what goes wrong in the
// background, such as a drag sweep) to nowhere.
type Config struct {
	Store  core.Store
	Events core.Publisher
	Rules  core.Rules
	Roller core.Roller
	Now    func() time.Time
	Live   *Live
	Log    *slog.Logger
	// MessageRate and MessageBurst bound each device's messages
	// (chat.Budget): zero takes the defaults, a negative rate lifts the
	// limit.
	MessageRate  float64
	MessageBurst int
}

// New returns a Kernel over the given store, publisher and rules.
func New(cfg Config) *Kernel {
	s := &Kernel{Store: cfg.Store, Events: cfg.Events, ruleSource: cfg.Rules, Roller: cfg.Roller, Now: cfg.Now, LiveState: cfg.Live, Log: cfg.Log}
	if s.Now == nil {
		s.Now = time.Now
	}
	if s.LiveState == nil {
		s.LiveState = NewLive(core.Settings{RemoteInteraction: true})
	}
	if s.Events == nil {
		s.Events = core.NewBus()
	}
	if s.Log == nil {
		s.Log = slog.New(slog.DiscardHandler)
	}
	s.MarkMoves = MarkMoves{Active: map[string]MarkMove{}, Vetoed: map[string]string{}}
	s.Messages = chat.NewMessageBudget(cfg.MessageRate, cfg.MessageBurst, func() time.Time { return s.Now() })
	return s
}

// Live returns the in-memory live state (settings, tracked objects).
func (s *Kernel) Live() *Live { return s.LiveState }

// Publish sends events that need no store change (drag streams, pointers)
// through the same ordered path as committed changes.
func (s *Kernel) Publish(events ...core.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.publishLocked(events...)
}

// publishLocked hands events to the subscribers and tells the drag
// tracker of them (dragsweep.go). The caller holds the commit lock: every
// event the service sends goes through here, in commit order.
func (s *Kernel) publishLocked(events ...core.Event) {
	for _, e := range events {
		if e.Name == core.EventReload {
			s.SeatsByHash.forget() // content changed under the seats (a campaign replaced or deleted)
			s.MapFiles.forget()
			s.screenMap.forget()
		}
	}
	s.Events.Publish(events...)
	if s.OnPublished != nil {
		s.OnPublished(events)
	}
}

// Write runs fn in one transaction and publishes the events it returns
// after the commit. Nothing is published when fn fails.
//
// Broadcasts run inside the commit lock. The lock is held from before the
// transaction until the bus has handed the events to every subscriber, so
// the order clients receive events is the order the changes committed:
// were publication outside the lock, two writes committing A then B could
// broadcast B then A, and every client would keep A's older state (a token
// back where it was, a stale hit point total). The price is that a slow
// subscriber delays every writer, so subscribers must not block: the
// WebSocket hub encodes each frame once and never waits for a client (a
// non-blocking write to an idle socket, else the client's bounded queue),
// dropping a client whose queue is full.
// Publish takes the same lock, so uncommitted streams (drags, pointers)
// stay in order with committed changes.
func (s *Kernel) Write(ctx context.Context, fn func(tx core.Tx) ([]core.Event, error)) error {
	return s.WriteThen(ctx, fn, nil)
}

// WriteThen is write with committed, when not nil, run after the commit
// and before the events are published: what the service keeps in memory
// beside the store (the join key, the seats' index) changes only once the
// store did, and before any subscriber hears of it.
func (s *Kernel) WriteThen(ctx context.Context, fn func(tx core.Tx) ([]core.Event, error), committed func()) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var events []core.Event
	var watched *mapWritesTx
	err := s.Store.Update(ctx, func(tx core.Tx) error {
		watched = &mapWritesTx{Tx: tx}
		var err error
		events, err = fn(watched)
		return err
	})
	if err != nil {
		return err
	}
	s.commits.Add(1)
	if watched != nil && watched.touched {
		s.MapFiles.forget()
	}
	if watched != nil && watched.screens {
		s.screenMap.forget()
	}
	if committed != nil {
		committed()
	}
	s.publishLocked(events...)
	return nil
}

// Generation increases after every write committed through the service.
// A cache of store reads (the HTTP collection listings) keeps its entry
// while the generation is unchanged. Read it before reading the store.
func (s *Kernel) Generation() uint64 { return s.commits.Load() }

// PrimaryCampaign returns the primary campaign of the loaded system.
func (s *Kernel) PrimaryCampaign(ctx context.Context) (*core.Campaign, error) {
	p := s.Pin()
	var c *core.Campaign
	err := p.Store.View(ctx, func(tx core.Tx) error {
		var err error
		c, err = tx.PrimaryCampaign(p.Rules.SystemID())
		return err
	})
	return c, err
}

// PrimaryCampaign reads the loaded system's primary campaign inside tx, with
// the contract's wording when there is none.
func (s Pinned) PrimaryCampaign(tx core.Tx) (*core.Campaign, error) {
	c, err := tx.PrimaryCampaign(s.Rules.SystemID())
	if core.IsNotFound(err) {
		return nil, core.NotFoundf("no primary campaign for system '%s'", s.Rules.SystemID())
	}
	return c, err
}
