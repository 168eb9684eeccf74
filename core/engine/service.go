package engine

import (
	"log/slog"
	"time"

	"github.com/vttapp/companion/core/engine/seats"

	"github.com/vttapp/companion/core/engine/library"

	"github.com/vttapp/companion/core/engine/table"

	"github.com/vttapp/companion/core/engine/kernel"

	"github.com/vttapp/companion/core/chat"

	"github.com/vttapp/companion/core"
)

// ServiceConfig wires a Service. Now defaults to time.Now; Live defaults to
// fresh live state with remote interaction on; Log (what goes wrong in the
// background, such as a drag sweep) to nowhere.
type ServiceConfig struct {
	Store  core.Store
	Events core.Publisher
	Rules  core.Rules
	Roller core.Roller
	Now    func() time.Time
	Live   *kernel.Live
	Log    *slog.Logger
	// MessageRate and MessageBurst bound each device's messages
	// (messagebudget.go): zero takes the defaults, a negative rate lifts
	// the limit.
	MessageRate  float64
	MessageBurst int
}

// NewService returns a Service over the given store, publisher and rules.
func NewService(cfg ServiceConfig) *Service {
	s := &kernel.Kernel{Store: cfg.Store, Events: cfg.Events, RuleSource: cfg.Rules, Roller: cfg.Roller, Now: cfg.Now, LiveState: cfg.Live, Log: cfg.Log}
	if s.Now == nil {
		s.Now = time.Now
	}
	if s.LiveState == nil {
		s.LiveState = kernel.NewLive(core.Settings{RemoteInteraction: true})
	}
	if s.Events == nil {
		s.Events = core.NewBus()
	}
	if s.Log == nil {
		s.Log = slog.New(slog.DiscardHandler)
	}
	s.MarkMoves = kernel.MarkMoves{Active: map[string]kernel.MarkMove{}, Vetoed: map[string]string{}}
	s.Messages = chat.NewMessageBudget(cfg.MessageRate, cfg.MessageBurst, func() time.Time { return s.Now() })
	playing := &playRoom{Kernel: s}
	playing.dragTracker = newDrags(playing)
	s.OnPublished = playing.dragTracker.published
	return &Service{kernel: s, SeatsRoom: &seats.SeatsRoom{Kernel: s}, LibraryRoom: &library.LibraryRoom{Kernel: s}, playRoom: playing, TableRoom: &table.TableRoom{Kernel: s}}
}

// Drags returns the service's drag tracker: the hub hands it every
// tokenMoved, the host console its veto.
func (s *playRoom) Drags() *Drags { return s.dragTracker }
