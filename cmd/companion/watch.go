package main

import (
	"context"
	"log/slog"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/systems"
)

// watchSystem hot-reloads the system folder until ctx ends: the watcher
// swaps good edits in, tells clients (reload), and records each outcome in
// status for the host console; a broken edit keeps the old version serving.
func watchSystem(ctx context.Context, cfg *serveConfig, holder *systems.Holder, svc *engine.Service, status *systems.ReloadStatus, log *slog.Logger) {
	err := systems.Watch(ctx, cfg.SystemDir, holder, systems.WatchOptions{
		Load: systems.Options{CallTimeout: cfg.LuaTimeout}, Logger: log, Status: status, Publisher: svc})
	if err != nil && ctx.Err() == nil {
		log.Error("watching the system folder stopped", "dir", cfg.SystemDir, "error", err)
	}
}
