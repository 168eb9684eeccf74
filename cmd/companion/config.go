package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/discovery"
	"github.com/vttapp/companion/guard"
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
	LogFormat         string // text or json
	LuaTimeout        time.Duration
	MaxBodyBytes      int64
	MaxClients        int
	ClientRate        int
	// MaxPerAddress is --max-clients-per-address (hub/peraddress.go).
	MaxPerAddress int

	// AddrGiven and HostAddrGiven tell an address chosen on the command
	// line or in the environment from the default, which gives way to the
	// next free port when it is taken (listen.go).
	AddrGiven, HostAddrGiven bool
	// Open is "auto" (open the host console in the browser when started
	// from a desktop without a terminal), "true" or "false".
	Open string
	// MDNS turns the mDNS advertisement of MDNSName (a host label such as
	// "companion", answered as companion.local) on.
	MDNS     bool
	MDNSName string
	// HostAddrContainer lets --host-addr be a non-loopback address inside
	// a container, whose host console port the operator publishes on the
	// host's loopback only (docs/install.md#container).
	HostAddrContainer bool
	// MaxHTTPPerAddress is --max-http-per-address (routes/connlimit.go).
	MaxHTTPPerAddress int
	// JoinKey turns the join key on at start (core/access.go): players
	// then need the link that carries it.
	JoinKey bool
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
	fs.StringVar(&cfg.LogFormat, "log-format", "text", "log format: text (key=value lines) or json (one JSON object a line, for log collectors)")
	fs.DurationVar(&cfg.LuaTimeout, "lua-timeout", 250*time.Millisecond, "time limit of one Lua call")
	fs.Int64Var(&cfg.MaxBodyBytes, "max-body", 8<<20, "largest request body accepted on writes, in bytes")
	fs.IntVar(&cfg.MaxClients, "max-clients", 500, "most WebSocket clients connected at once (every client receives every broadcast)")
	fs.IntVar(&cfg.MaxPerAddress, "max-clients-per-address", 32, "most WebSocket clients from one remote address at once (loopback is not counted)")
	cfg.Open = "auto"
	fs.Var(openFlag{cfg}, "open", "open the host console in the default browser: auto (when started from a desktop without a terminal), true or false")
	fs.BoolVar(&cfg.MDNS, "mdns", true, "advertise the server by mDNS/DNS-SD on the player listener's interfaces (false: off)")
	fs.StringVar(&cfg.MDNSName, "mdns-name", "companion", "the name players can type: NAME answers as NAME.local")
	fs.BoolVar(&cfg.HostAddrContainer, "host-addr-container", false, "inside a container only: let --host-addr be a non-loopback address; publish its port on the host's loopback only (127.0.0.1:8081:8081)")
	fs.IntVar(&cfg.MaxHTTPPerAddress, "max-http-per-address", guard.DefaultMaxHTTPPerAddress, "most open HTTP connections from one remote address at once, WebSockets aside (loopback is not counted)")
	fs.BoolVar(&cfg.JoinKey, "join-key", false, "turn the join key on: players join only through the link (and QR code) that carries it; the host console turns it off and draws new keys")
	fs.IntVar(&cfg.ClientRate, "client-rate", 50, "WebSocket requests one client may make per second, bursts of twice that (drags, pointers and viewports are coalesced to 60/s instead)")

	// Environment first, so that explicit flags override it.
	var envErr error
	given := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) {
		name := "COMPANION_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := getenv(name); v != "" && envErr == nil {
			given[f.Name] = true
			if err := f.Value.Set(v); err != nil {
				why := err.Error()
				if why == "parse error" || why == "value out of range" {
					why = takes(fs, f.Name)
				}
				envErr = fmt.Errorf("%s=%q: %s", name, v, why)
			}
		}
	})
	if envErr != nil {
		return nil, fs, envErr
	}
	// Errors are worded once, by flagText; the whole list of flags is for -h.
	fs.SetOutput(io.Discard)
	if err := fs.Parse(joinModeWords(args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(os.Stderr)
			fmt.Fprintln(os.Stderr, "Usage of companion serve:")
			fs.PrintDefaults()
		}
		return nil, fs, flagText(err, fs)
	}
	if fs.NArg() > 0 {
		return nil, fs, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	cfg.AddrGiven, cfg.HostAddrGiven = given["addr"], given["host-addr"]
	if err := checkAddr("addr", cfg.Addr, ""); err != nil {
		return nil, fs, err
	}
	hostAddr, err := hostConsoleAddr(cfg.HostAddr, cfg.HostAddrContainer)
	if err != nil {
		return nil, fs, err
	}
	cfg.HostAddr = hostAddr
	if cfg.MDNSName, err = mdnsHost(cfg.MDNSName); err != nil {
		return nil, fs, err
	}
	if cfg.LogFormat != "text" && cfg.LogFormat != "json" {
		return nil, fs, fmt.Errorf("--log-format must be text or json, not %q", cfg.LogFormat)
	}
	switch strings.ToLower(cfg.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		return nil, fs, fmt.Errorf("--log-level %q: use debug, info, warn or error", cfg.LogLevel)
	}
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

// hostConsoleAddr is the host console's listen address: a loopback one
// (loopbackAddr), or with --host-addr-container inside a container any
// address, since the container's own loopback cannot be reached from the
// host: the operator publishes the port on the host's loopback only. Out
// of a container the flag is refused, so it cannot open the console to a
// network by mistake.
func hostConsoleAddr(addr string, container bool) (string, error) {
	if !container {
		return loopbackAddr(addr)
	}
	if !inContainer() {
		return "", fmt.Errorf("--host-addr-container is for a container (no %s found): out of one, the host console stays on loopback", strings.Join(containerMarkers, " or "))
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--host-addr %q: %v", addr, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("--host-addr %q: bad port", addr)
	}
	if host != "" {
		if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err != nil {
			return "", fmt.Errorf("--host-addr %q: give an IP address, not a name", addr)
		}
	}
	return addr, nil
}

// containerMarkers are the files Docker and Podman put in every container.
var containerMarkers = []string{"/.dockerenv", "/run/.containerenv"}

func inContainer() bool {
	for _, m := range containerMarkers {
		if _, err := os.Stat(m); err == nil {
			return true
		}
	}
	return false
}

// mdnsHost turns --mdns-name into a host label: "companion.local" and
// "companion" both give "companion".
func mdnsHost(name string) (string, error) {
	h := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(strings.TrimSpace(name)), "."), ".local")
	if !discovery.ValidHost(h) {
		return "", fmt.Errorf("--mdns-name %q: use letters, digits and '-', as in companion (answered as companion.local)", name)
	}
	return h, nil
}

// openFlag is --open: auto, true or false; a bare --open is true.
type openFlag struct{ cfg *serveConfig }

// String is "" for the zero flag: the flag package prints a default only
// when it differs from the zero value's text.
func (f openFlag) String() string {
	if f.cfg == nil {
		return ""
	}
	return f.cfg.Open
}

func (f openFlag) Set(v string) error {
	switch strings.ToLower(v) {
	case "auto":
		f.cfg.Open = "auto"
	case "true", "1", "yes":
		f.cfg.Open = "true"
	case "false", "0", "no":
		f.cfg.Open = "false"
	default:
		return fmt.Errorf("use auto, true or false")
	}
	return nil
}

func (f openFlag) IsBoolFlag() bool { return true }

// loopbackAddr refuses a host console address that other machines could
// reach (the console can install content and change settings) and returns
// the one to listen on. The decision is made from the text: "localhost" is
// bound as 127.0.0.1, never handed to the resolver, whose answer (a hosts
// file, a search domain) could name another interface.
func loopbackAddr(addr string) (string, error) {
	if err := checkAddr("host-addr", addr, "127.0.0.1"); err != nil {
		return "", err
	}
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

// checkAddr refuses a listen address without the host:port form, saying
// the form with an example: the commonest slip is a port alone ("8080"),
// which names no port to a listener. host is the example's host ("" for
// every interface).
func checkAddr(flagName, addr, host string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return fmt.Errorf("--%s %q: the port must be a number from 0 to 65535, e.g. --%s %s:8080", flagName, addr, flagName, host)
		}
		return nil
	}
	if _, perr := strconv.ParseUint(addr, 10, 16); perr == nil {
		hint := fmt.Sprintf("--%s %s:%s", flagName, host, addr)
		if host == "" {
			hint += " (every interface) or --" + flagName + " 127.0.0.1:" + addr + " (this machine only)"
		}
		return fmt.Errorf("--%s %q: a port is written after a colon, e.g. %s", flagName, addr, hint)
	}
	return fmt.Errorf("--%s %q: give host:port, e.g. --%s %s:8080", flagName, addr, flagName, host)
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
// a bare --remote-interaction still means all; a mode follows it with '='
// or as the next word (joinModeWords).
type interactionFlag struct{ cfg *serveConfig }

// String is "" for the zero flag, as openFlag's.
func (f interactionFlag) String() string {
	if f.cfg == nil {
		return ""
	}
	return f.cfg.Interaction
}

func (f interactionFlag) Set(v string) error {
	mode, ok := core.ParseInteraction(v)
	if !ok {
		return fmt.Errorf("use none, token or all (true is all, false none)")
	}
	f.cfg.Interaction, f.cfg.RemoteInteraction = mode, mode != core.InteractionNone
	return nil
}

func (f interactionFlag) IsBoolFlag() bool { return true }
