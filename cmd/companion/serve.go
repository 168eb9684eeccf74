package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/dice"
	"github.com/vttapp/companion/core/imports"
	"github.com/vttapp/companion/core/sqlite"
	"github.com/vttapp/companion/examples/dnd5e"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/routes/hub"
	"github.com/vttapp/companion/systems"
	"github.com/vttapp/companion/web"
)

// runServe starts the server and blocks until SIGINT or SIGTERM.
func runServe(args []string, stdout, stderr io.Writer) int {
	cfg, _, err := parseServeFlags(args, os.Getenv)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "companion:", err)
		return 2
	}
	log := newLogger(stderr, cfg.LogLevel)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, cfg, log, stdout); err != nil {
		log.Error("companion stopped", "error", err)
		return 1
	}
	return 0
}

func newLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}

// dataFolders are the served folders of the data folder.
var dataFolders = []string{"modules", "campaigns", "systems", "others"}

// serve wires the application together and runs it until ctx ends.
func serve(ctx context.Context, cfg *serveConfig, log *slog.Logger, banner io.Writer) error {
	for _, dir := range append([]string{""}, dataFolders...) {
		if err := os.MkdirAll(filepath.Join(cfg.DataDir, dir), 0o755); err != nil {
			return fmt.Errorf("data folder: %w", err)
		}
	}
	dbPath := filepath.Join(cfg.DataDir, "companion.db")
	_, statErr := os.Stat(dbPath)
	fresh := errors.Is(statErr, fs.ErrNotExist)

	store, err := sqlite.Open(dbPath)
	if err != nil {
		return fmt.Errorf("open %s: %w", dbPath, err)
	}
	defer store.Close()

	sys, err := loadSystem(cfg)
	if err != nil {
		return err
	}
	holder := systems.NewHolder(sys)
	defer func() { holder.Current().Close() }()

	bus := core.NewBus()
	svc := core.NewService(core.ServiceConfig{
		Store:  store,
		Events: bus,
		Rules:  holder,
		Roller: dice.NewRoller(),
		Live:   core.NewLive(core.Settings{RemoteInteraction: cfg.RemoteInteraction, Interaction: cfg.Interaction}),
	})
	cols := collections{holder}

	if fresh && !cfg.Empty {
		if sample := sys.Sample(); sample != nil {
			if err := imports.Seed(ctx, svc, cfg.DataDir, sample, cols); err != nil {
				return fmt.Errorf("seed demo content: %w", err)
			}
			log.Info("seeded demo content", "system", sys.ID())
		}
	}

	live := hub.New(svc, bus, log, hub.Options{
		AllowOrigins:             splitList(cfg.AllowOrigins),
		MaxConnections:           cfg.MaxClients,
		MaxConnectionsPerAddress: cfg.MaxPerAddress,
		RequestRate:              cfg.ClientRate,
		RequestBurst:             2 * cfg.ClientRate,
	})
	publicLn, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", cfg.Addr, err)
	}
	hostLn, err := net.Listen("tcp", cfg.HostAddr)
	if err != nil {
		publicLn.Close()
		return fmt.Errorf("listen %s (host console): %w", cfg.HostAddr, err)
	}
	// The importer never fetches from these two (an offer's manifest is
	// fetched before anyone accepts it).
	importer := imports.NewManager(imports.Config{Service: svc, DataDir: cfg.DataDir, Collections: cols, AppVersion: core.Version, Log: log,
		OwnAddrs: []net.Addr{publicLn.Addr(), hostLn.Addr()}})
	// Downloads in flight are cancelled at shutdown; their staging folders
	// are swept at the next start.
	defer importer.Close()
	reloads := &systems.ReloadStatus{} // hot reload results, shown on the host console
	rc := routes.Config{
		SystemStatus: reloads,
		Service:      svc,
		Hub:          live,
		Systems:      holder,
		Imports:      importer,
		DataDir:      cfg.DataDir,
		Log:          log,
		MaxBodyBytes: cfg.MaxBodyBytes,
		AllowHosts:   splitList(cfg.AllowHosts),
		AllowOrigins: splitList(cfg.AllowOrigins),
		Web:          web.FS,
	}

	public := newHTTPServer(routes.NewPublicHandler(rc), log)
	host := newHTTPServer(routes.NewHostHandler(rc), log)
	// The host listener is loopback only, which the cap does not count.
	perAddress := routes.NewConnLimiter(cfg.MaxHTTPPerAddress, log)
	public.ConnState = perAddress.ConnState

	if cfg.SystemDir != "" {
		go watchSystem(ctx, cfg, holder, svc, reloads, log)
	}

	errc := make(chan error, 2)
	go func() { errc <- public.Serve(perAddress.Listener(publicLn)) }()
	go func() { errc <- host.Serve(hostLn) }()
	printBanner(banner, sys, publicLn.Addr(), hostLn.Addr(), cfg.DataDir)

	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			log.Error("server failed", "error", err)
		}
	}
	// In-flight requests get a grace period; WebSocket clients get a close
	// frame (http.Server.Shutdown does not see hijacked connections).
	live.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = host.Shutdown(shutdownCtx)
	if err := public.Shutdown(shutdownCtx); err != nil {
		log.Warn("shutdown incomplete", "error", err)
	}
	return nil
}

// newHTTPServer hardens a server against slow and idle clients: headers
// within 10 s, bodies by the rules of routes/bodytime.go (a pace, not one
// deadline: an upload may be large). There is no WriteTimeout because
// WebSocket connections are long-lived; handlers bound their own work.
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// loadSystem compiles the system folder named by --system, or the embedded
// D&D 5e example.
func loadSystem(cfg *serveConfig) (*systems.System, error) {
	opts := systems.Options{CallTimeout: cfg.LuaTimeout}
	if cfg.SystemDir == "" {
		sys, err := systems.Load(dnd5e.FS, opts)
		if err != nil {
			return nil, fmt.Errorf("embedded system: %w", err)
		}
		return sys, nil
	}
	sys, err := systems.LoadDir(cfg.SystemDir, opts)
	if err != nil {
		return nil, fmt.Errorf("system %s:\n%w", cfg.SystemDir, err)
	}
	return sys, nil
}

// collections adapts the current system to what the importer needs.
type collections struct{ holder *systems.Holder }

func (c collections) SystemID() string { return c.holder.Current().ID() }

func (c collections) KindForCollection(label string) (string, bool) {
	k, ok := c.holder.Current().KindByCollection(label)
	if !ok {
		return "", false
	}
	return k.Name, true
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
