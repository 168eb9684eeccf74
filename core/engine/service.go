package engine

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/engine/library"
	"github.com/vttapp/companion/core/engine/play"
	"github.com/vttapp/companion/core/engine/seats"
	"github.com/vttapp/companion/core/engine/table"
)

// Service is the one place that changes game state: four rooms over the
// kernel they share. Each room's methods are promoted, so callers say
// svc.Tokens or svc.ClaimSeat without knowing which room answers. The
// kernel is a named field, not embedded: embedding would promote every
// helper the rooms share (the raw write, the checked puts) to callers
// outside the engine; its own entry points are offered by name
// (kernelcalls.go).
type Service struct {
	kernel *kernel.Kernel
	*seats.SeatsRoom
	*library.LibraryRoom
	*play.PlayRoom
	*table.TableRoom
}

// ServiceConfig wires a Service (kernel.Config says what each field does
// and what it defaults to).
type ServiceConfig = kernel.Config

// NewService returns a Service over the given store, publisher and rules.
func NewService(cfg ServiceConfig) *Service {
	k := kernel.New(cfg)
	playing := play.NewPlayRoom(k)
	return &Service{
		kernel:      k,
		SeatsRoom:   &seats.SeatsRoom{Kernel: k},
		LibraryRoom: &library.LibraryRoom{Kernel: k},
		PlayRoom:    playing,
		TableRoom:   &table.TableRoom{Kernel: k},
	}
}

// The kernel's types that callers outside the engine name.
type (
	// Live is the in-memory live state (settings, tracked objects).
	Live = kernel.Live
	// SettingsPatch is a change of the live settings.
	SettingsPatch = kernel.SettingsPatch
)

// NewLive returns live state starting from the given settings.
func NewLive(s core.Settings) *Live { return kernel.NewLive(s) }
