package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/vttapp/companion/backup"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/desktop"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/discovery"
	"github.com/vttapp/companion/examples/dnd5e"
	"github.com/vttapp/companion/guard"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/routes"
	"github.com/vttapp/companion/routes/datafolder"
	"github.com/vttapp/companion/sound"
	"github.com/vttapp/companion/store/sqlite"
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
	log := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch err := serve(ctx, cfg, log, stdout); {
	case errors.Is(err, errAlreadyRunning):
		return 0
	case err != nil:
		// One plain line, whatever the log format: this is what a person
		// reads when the server does not start (a taken port).
		fmt.Fprintln(stderr, "companion:", err)
		return 1
	}
	return 0
}

// newLogger logs at level in the given format: "json" writes one JSON
// object a line (for a log collector, a container's logs), anything else
// slog's key=value text.
func newLogger(w io.Writer, level, format string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: l}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// dataFolders are the served folders of the data folder.
var dataFolders = []string{"modules", "campaigns", "systems", "others"}

// serve wires the application together and runs it until ctx ends. The
// order matters to a first start: the listeners are bound before anything
// is written (a taken port leaves no data folder behind), and a fresh data
// folder is seeded under a marker (firstrun.go).
func serve(ctx context.Context, cfg *serveConfig, log *slog.Logger, out io.Writer) error {
	wantBrowser := cfg.Open == "true" || (cfg.Open == "auto" && !cfg.HostAddrContainer && desktop.LaunchedWithoutTerminal())
	if inst, running := runningInstance(cfg.DataDir); running {
		console := "http://" + dialAddr(inst.HostAddr) + "/host/"
		fmt.Fprintf(out, "Companion is already running with the data folder %s: host console %s\n", cfg.DataDir, console)
		if wantBrowser {
			openBrowser(console, log)
			return errAlreadyRunning
		}
		return fmt.Errorf("a second server cannot use the same data folder: stop the running one (pid %d), or give another --data", inst.PID)
	}

	publicLn, hostLn, err := listenBoth(cfg, out)
	if err != nil {
		return err
	}
	defer publicLn.Close()
	defer hostLn.Close()

	sys, err := loadSystem(cfg)
	if err != nil {
		return err
	}
	holder := systems.NewHolder(sys)
	defer func() { holder.Current().Close() }()

	folder, err := openDataFolder(cfg.DataDir, !cfg.Empty && sys.Sample() != nil, func(note string) { log.Warn(note) })
	if err != nil {
		return err
	}
	dbPath := filepath.Join(cfg.DataDir, "companion.db")
	// A database from an older version is backed up, whole data folder
	// and all, before its schema is migrated.
	store, err := sqlite.OpenWith(dbPath, sqlite.Options{BeforeMigrate: backupBeforeMigrate(ctx, cfg.DataDir, log)})
	if err != nil {
		return fmt.Errorf("open %s: %w", dbPath, err)
	}
	defer store.Close()

	bus := core.NewBus()
	svc := engine.NewService(engine.ServiceConfig{
		Store:  store,
		Events: bus,
		Rules:  holder,
		Roller: dice.NewRoller(),
		Live:   engine.NewLive(core.Settings{RemoteInteraction: cfg.RemoteInteraction, Interaction: cfg.Interaction}),
		Log:    log,
	})
	cols := collections{holder}
	if cfg.JoinKey {
		if _, err := svc.SetJoinKey(ctx, true); err != nil {
			return fmt.Errorf("turn the join key on: %w", err)
		}
	}

	if folder.fresh && !cfg.Empty {
		if sample := sys.Sample(); sample != nil {
			if err := imports.Seed(ctx, svc, cfg.DataDir, sample, cols); err != nil {
				store.Close()
				if uerr := folder.undo(); uerr != nil {
					log.Error("could not remove the half-seeded data folder", "error", uerr)
				}
				return fmt.Errorf("seed demo content: %w", err)
			}
			if err := folder.seeded(); err != nil {
				return fmt.Errorf("data folder: %w", err)
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
	// The importer never fetches from these two (an offer's manifest is
	// fetched before anyone accepts it).
	importer := imports.NewManager(imports.Config{Service: svc, DataDir: cfg.DataDir, Collections: cols, AppVersion: core.Version, Log: log,
		OwnAddrs: []net.Addr{publicLn.Addr(), hostLn.Addr()}})
	// Downloads in flight are cancelled at shutdown; their staging folders
	// are swept at the next start.
	defer importer.Close()

	advertiser := advertise(ctx, cfg, publicLn.Addr(), log)
	joinName := ""
	if advertiser != nil {
		defer advertiser.Close() // a goodbye, so that caches forget the name at once
		joinName = advertiser.Service().Host + ".local"
	}

	// The table's sound: the primary campaign's audio library and what
	// plays on every screen (kept in memory: a restart stops the music).
	deck := &sound.Deck{Library: &sound.Library{Locate: datafolder.SoundLocator(svc, cfg.DataDir)}, Events: bus}
	defer deck.Close()
	reloads := &systems.ReloadStatus{} // hot reload results, shown on the host console
	instanceID := core.NewID()
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
		JoinName:     joinName,
		PublicAddr:   publicLn.Addr().String(),
		InstanceID:   instanceID,
		Backups:      backup.NewMaker(cfg.DataDir, core.Version, store.BackupInto),
		Sound:        deck,
	}

	public := newHTTPServer(routes.NewPublicHandler(rc), log)
	host := newHTTPServer(routes.NewHostHandler(rc), log)
	// The host listener is loopback only, which the cap does not count.
	perAddress := guard.NewConnLimiter(cfg.MaxHTTPPerAddress, log)
	public.ConnState = perAddress.ConnState

	if cfg.SystemDir != "" {
		go watchSystem(ctx, cfg, holder, svc, reloads, log)
	}

	errc := make(chan error, 2)
	go func() { errc <- public.Serve(perAddress.Listener(publicLn)) }()
	go func() { errc <- host.Serve(hostLn) }()
	inst := instance{ID: instanceID, PID: os.Getpid(), Addr: publicLn.Addr().String(), HostAddr: hostLn.Addr().String(), Version: core.Version}
	if err := writeInstance(cfg.DataDir, inst); err != nil {
		log.Warn("the other commands will not find this server", "file", instanceFile, "error", err)
	}
	defer removeInstance(cfg.DataDir, instanceID)
	join, err := svc.JoinStatus(ctx)
	if err != nil {
		return fmt.Errorf("read the join key: %w", err)
	}
	printBanner(out, bannerInfo{Release: thisRelease(), System: sys, Public: publicLn.Addr(), Host: hostLn.Addr(),
		DataDir: cfg.DataDir, JoinName: joinName, Container: cfg.HostAddrContainer, Join: join})
	if wantBrowser && !cfg.HostAddrContainer {
		openBrowser("http://"+dialAddr(hostLn.Addr().String())+"/host/", log)
	}

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

// advertise starts the mDNS advertisement of the player listener, or
// returns nil (said in the log) when it is off or cannot run.
func advertise(ctx context.Context, cfg *serveConfig, public net.Addr, log *slog.Logger) *discovery.Advertiser {
	if !cfg.MDNS {
		return nil
	}
	tcp, ok := public.(*net.TCPAddr)
	if !ok {
		return nil
	}
	targets, err := discovery.TargetsFor(tcp.IP)
	if err != nil {
		log.Warn("mDNS: cannot list the network interfaces; not advertised", "error", err)
		return nil
	}
	instanceName := "Companion"
	if cfg.MDNSName != "companion" {
		instanceName = "Companion " + cfg.MDNSName
	}
	svc := discovery.Service{Instance: instanceName, Host: cfg.MDNSName, Port: tcp.Port, Text: []string{"path=/client/"}}
	probeCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	adv, err := discovery.Advertise(probeCtx, svc, targets, discovery.Options{Log: log})
	switch {
	case errors.Is(err, discovery.ErrNoInterface):
		log.Info("mDNS: not advertised: the player listener is on no interface that carries multicast (loopback only?)")
		return nil
	case err != nil:
		log.Warn("mDNS: not advertised", "error", err)
		return nil
	}
	log.Info("mDNS: advertised", "name", adv.Service().Host+".local", "interfaces", strings.Join(adv.Interfaces(), ","))
	return adv
}

// openBrowser opens a page for the person at the device, or says why not.
func openBrowser(url string, log *slog.Logger) {
	if err := desktop.OpenURL(url); err != nil {
		log.Info("could not open the browser; open the address yourself", "url", url, "error", err)
	}
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

// Compendium is the loaded system's import hook for legacy compendium
// XML, pinned for one import (a reload meanwhile does not change it).
func (c collections) Compendium() imports.CompendiumMapper { return c.holder.Current() }

func (c collections) KindForCollection(label string) (string, bool) {
	k, ok := c.holder.Current().KindByCollection(label)
	if !ok {
		return "", false
	}
	return k.Name, true
}

// CollectionForKind is the collection label of a kind, for an export.
func (c collections) CollectionForKind(kind string) (string, bool) {
	k, ok := c.holder.Current().Kind(kind)
	if !ok {
		return "", false
	}
	return k.Collection, true
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
