package main

import (
	"flag"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes"
)

// defaultHostAddr is where the host console listens unless told otherwise;
// the commands that talk to a running server (open, import) call it there.
const defaultHostAddr = "127.0.0.1:8081"

// serveConfig is everything `companion serve` can be told.
type serveConfig struct {
	Addr              string
	HostAddr          string
	DataDir           string
	SystemDir         string
	Empty             bool
	RemoteInteraction bool   // false only when Interaction is none
	Interaction       string // none, token or all
	AllowOrigins      string
	AllowHosts        string
	LogLevel          string
	LuaTimeout        time.Duration
	MaxBodyBytes      int64
	MaxClients        int
	ClientRate        int
	// MaxPerAddress is --max-clients-per-address (routes/hub/peraddress.go).
	MaxPerAddress int
	// MaxHTTPPerAddress is --max-http-per-address (routes/connlimit.go).
	MaxHTTPPerAddress int
}

// parseServeFlags reads flags, each of which may also be set through the
// environment as COMPANION_<NAME> (dashes become underscores); a flag on the
// command line wins over the environment.
func parseServeFlags(args []string, getenv func(string) string) (*serveConfig, *flag.FlagSet, error) {
	cfg := &serveConfig{}
	fs := flag.NewFlagSet("companion serve", flag.ContinueOnError)
	fs.StringVar(&cfg.Addr, "addr", ":8080", "address players connect to (HTTP, WebSocket)")
	fs.StringVar(&cfg.HostAddr, "host-addr", defaultHostAddr, "host console address; must be a loopback address")
	fs.StringVar(&cfg.DataDir, "data", defaultDataDir(), "data folder: companion.db, modules/, campaigns/, systems/, others/")
	fs.StringVar(&cfg.SystemDir, "system", "", "game system folder on disk, hot-reloaded on change (default: the embedded D&D 5e system)")
	fs.BoolVar(&cfg.Empty, "empty", false, "do not seed the system's demo content into a fresh data folder")
	cfg.Interaction, cfg.RemoteInteraction = core.InteractionAll, true
	fs.Var(interactionFlag{cfg}, "remote-interaction", "what clients may do: all (drag any token, open doors, move pointers), token (each player drags only their own token), none; true is all, false none")
	fs.StringVar(&cfg.AllowOrigins, "allow-origin", "", "comma-separated extra origins whose pages may open a WebSocket and write")
	fs.StringVar(&cfg.AllowHosts, "allow-host", "", "comma-separated extra host names players may use for writes and WebSockets (IP addresses, localhost, .local names and this machine's name always work)")
	fs.StringVar(&cfg.LogLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.DurationVar(&cfg.LuaTimeout, "lua-timeout", 250*time.Millisecond, "time limit of one Lua call")
	fs.Int64Var(&cfg.MaxBodyBytes, "max-body", 8<<20, "largest request body accepted on writes, in bytes")
	fs.IntVar(&cfg.MaxClients, "max-clients", 500, "most WebSocket clients connected at once (every client receives every broadcast)")
	fs.IntVar(&cfg.MaxPerAddress, "max-clients-per-address", 32, "most WebSocket clients from one remote address at once (loopback is not counted)")
	fs.IntVar(&cfg.MaxHTTPPerAddress, "max-http-per-address", routes.DefaultMaxHTTPPerAddress, "most open HTTP connections from one remote address at once, WebSockets aside (loopback is not counted)")
	fs.IntVar(&cfg.ClientRate, "client-rate", 50, "WebSocket requests one client may make per second, bursts of twice that (drags, pointers and viewports are coalesced to 60/s instead)")

	// Environment first, so that explicit flags override it.
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := "COMPANION_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := getenv(name); v != "" && envErr == nil {
			if err := f.Value.Set(v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v", name, v, err)
			}
		}
	})
	if envErr != nil {
		return nil, fs, envErr
	}
	if err := fs.Parse(args); err != nil {
		return nil, fs, err
	}
	if fs.NArg() > 0 {
		return nil, fs, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	hostAddr, err := loopbackAddr(cfg.HostAddr)
	if err != nil {
		return nil, fs, err
	}
	cfg.HostAddr = hostAddr
	if cfg.MaxBodyBytes <= 0 {
		return nil, fs, fmt.Errorf("--max-body must be positive")
	}
	if cfg.LuaTimeout <= 0 {
		return nil, fs, fmt.Errorf("--lua-timeout must be positive")
	}
	if cfg.MaxClients <= 0 {
		return nil, fs, fmt.Errorf("--max-clients must be positive")
	}
	if cfg.MaxPerAddress <= 0 {
		return nil, fs, fmt.Errorf("--max-clients-per-address must be positive")
	}
	if cfg.MaxHTTPPerAddress <= 0 {
		return nil, fs, fmt.Errorf("--max-http-per-address must be positive")
	}
	if cfg.ClientRate <= 0 {
		return nil, fs, fmt.Errorf("--client-rate must be positive")
	}
	return cfg, fs, nil
}

// loopbackAddr refuses a host console address that other machines could
// reach (the console can install content and change settings) and returns
// the one to listen on. The decision is made from the text: "localhost" is
// bound as 127.0.0.1, never handed to the resolver, whose answer (a hosts
// file, a search domain) could name another interface.
func loopbackAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--host-addr %q: %v", addr, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("--host-addr %q: bad port", addr)
	}
	if strings.EqualFold(host, "localhost") {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	if err != nil || !ip.IsLoopback() {
		return "", fmt.Errorf("--host-addr %q must be a loopback address (127.0.0.1, [::1] or localhost): the host console is for the person at the device only", addr)
	}
	return addr, nil
}

// defaultDataDir is the platform's per-user data folder.
func defaultDataDir() string {
	if runtime.GOOS == "linux" || runtime.GOOS == "freebsd" || runtime.GOOS == "openbsd" {
		if x := os.Getenv("XDG_DATA_HOME"); x != "" {
			return filepath.Join(x, "companion")
		}
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, ".local", "share", "companion")
		}
	}
	if dir, err := os.UserConfigDir(); err == nil {
		return filepath.Join(dir, "Companion")
	}
	return "companion-data"
}

// interactionFlag is --remote-interaction: a mode (none, token, all) or a
// boolean as before (true is all, false none). It stays a boolean flag, so
// a bare --remote-interaction still means all; give a mode with '='.
type interactionFlag struct{ cfg *serveConfig }

func (f interactionFlag) String() string {
	if f.cfg == nil {
		return core.InteractionAll
	}
	return f.cfg.Interaction
}

func (f interactionFlag) Set(v string) error {
	mode, ok := core.ParseInteraction(v)
	if !ok {
		return fmt.Errorf("must be none, token or all (or true, false), not %q", v)
	}
	f.cfg.Interaction, f.cfg.RemoteInteraction = mode, mode != core.InteractionNone
	return nil
}

func (f interactionFlag) IsBoolFlag() bool { return true }
