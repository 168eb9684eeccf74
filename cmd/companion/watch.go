package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/systems"
)

// watchSystem hot-reloads the system folder: a good edit is swapped in and
// clients are told to reload; a broken one keeps the old version serving.
// The watcher logs each outcome itself (with its latency, or its
// file:line problems); both are recorded in status for the host console.
func watchSystem(ctx context.Context, cfg *serveConfig, holder *systems.Holder, svc *core.Service, status *routes.SystemStatus, log *slog.Logger) {
	dir := cfg.SystemDir
	status.Watching(dir)
	err := systems.Watch(ctx, dir, holder, systems.WatchOptions{
		Load:   systems.Options{CallTimeout: cfg.LuaTimeout},
		Logger: log,
		OnReload: func(s *systems.System, latency time.Duration) {
			status.Reloaded(s.Version(), latency)
			svc.Publish(core.Event{Name: core.EventReload, Data: map[string]any{"system": s.ID(), "version": s.Version()}})
		},
		OnError: func(err error) {
			status.Failed(err)
		},
	})
	if err != nil && ctx.Err() == nil {
		log.Error("watching the system folder stopped", "dir", dir, "error", err)
	}
}
