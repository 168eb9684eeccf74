package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func noEnv(string) string { return "" }

func TestServeFlagsDefaults(t *testing.T) {
	cfg, _, err := parseServeFlags(nil, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != ":8080" || cfg.HostAddr != "127.0.0.1:8081" || !cfg.RemoteInteraction || cfg.Empty || cfg.LuaTimeout != 250*time.Millisecond {
		t.Fatalf("unexpected defaults: %+v", cfg)
	}
	if cfg.DataDir == "" {
		t.Fatal("no default data folder")
	}
	if cfg.MaxClients != 500 || cfg.ClientRate != 50 || cfg.MaxPerAddress != 32 {
		t.Fatalf("flood-limit defaults: %d clients, %d requests/s; want the hub's 500 and 50", cfg.MaxClients, cfg.ClientRate)
	}
}

func TestFloodLimitFlags(t *testing.T) {
	cfg, _, err := parseServeFlags([]string{"--max-clients", "20", "--client-rate", "5", "--max-clients-per-address", "4"}, noEnv)
	if err != nil || cfg.MaxClients != 20 || cfg.ClientRate != 5 || cfg.MaxPerAddress != 4 {
		t.Fatalf("flags not applied: %+v %v", cfg, err)
	}
	for _, args := range [][]string{{"--max-clients", "0"}, {"--client-rate", "-1"}, {"--max-clients-per-address", "0"}} {
		if _, _, err := parseServeFlags(args, noEnv); err == nil || !strings.Contains(err.Error(), args[0]+" must be positive") {
			t.Errorf("%v: want a refusal naming the flag, got %v", args, err)
		}
	}
}

func TestServeFlagsFromEnvironmentAndFlagsWin(t *testing.T) {
	env := map[string]string{
		"COMPANION_ADDR":               "127.0.0.1:9000",
		"COMPANION_HOST_ADDR":          "[::1]:9001",
		"COMPANION_EMPTY":              "true",
		"COMPANION_REMOTE_INTERACTION": "false",
		"COMPANION_DATA":               "/tmp/from-env",
	}
	cfg, _, err := parseServeFlags([]string{"--data", "/tmp/from-flag"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:9000" || cfg.HostAddr != "[::1]:9001" || !cfg.Empty || cfg.RemoteInteraction {
		t.Fatalf("environment not applied: %+v", cfg)
	}
	if cfg.DataDir != "/tmp/from-flag" {
		t.Fatalf("flag should win over environment, got %q", cfg.DataDir)
	}
}

func TestServeFlagsBadEnvironmentValue(t *testing.T) {
	_, _, err := parseServeFlags(nil, func(k string) string {
		if k == "COMPANION_EMPTY" {
			return "perhaps"
		}
		return ""
	})
	if err == nil || !strings.Contains(err.Error(), "COMPANION_EMPTY") {
		t.Fatalf("want an error naming the variable, got %v", err)
	}
}

func TestHostAddrMustBeLoopback(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8081", "127.5.6.7:1", "[::1]:8081", "localhost:8081", "LOCALHOST:1"} {
		if _, err := loopbackAddr(addr); err != nil {
			t.Errorf("%s refused: %v", addr, err)
		}
	}
	for _, addr := range []string{":8081", "0.0.0.0:8081", "192.168.1.4:8081", "[::]:8081", "example.com:8081", "127.0.0.1", "127.0.0.1:99999", "[::ffff:10.0.0.1]:80"} {
		if _, err := loopbackAddr(addr); err == nil {
			t.Errorf("%s accepted, want refused", addr)
		}
	}
	if _, _, err := parseServeFlags([]string{"--host-addr", "0.0.0.0:8081"}, noEnv); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("serve accepted a non-loopback host console: %v", err)
	}
}

func TestRunDispatch(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "companion ") {
		t.Fatalf("version: code %d, out %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"frobnicate"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unknown command") {
		t.Fatalf("unknown command: code %d, stderr %q", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"serve", "--host-addr", "0.0.0.0:1"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "loopback") {
		t.Fatalf("bad host addr: code %d, stderr %q", code, errOut.String())
	}
}

func TestSplitList(t *testing.T) {
	got := splitList(" https://a.example, ,b.example,")
	if len(got) != 2 || got[0] != "https://a.example" || got[1] != "b.example" {
		t.Fatalf("splitList: %q", got)
	}
}

func TestServeFlagsRemoteInteractionModes(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		mode   string
		remote bool
	}{
		{nil, "all", true},
		{[]string{"--remote-interaction"}, "all", true},
		{[]string{"--remote-interaction=false"}, "none", false},
		{[]string{"--remote-interaction=true"}, "all", true},
		{[]string{"--remote-interaction=token"}, "token", true},
		{[]string{"--remote-interaction=none"}, "none", false},
		{[]string{"--remote-interaction=all"}, "all", true},
		// A mode as the next word, as people type it.
		{[]string{"--remote-interaction", "token"}, "token", true},
		{[]string{"-remote-interaction", "none", "--open=false"}, "none", false},
		{[]string{"--remote-interaction", "--open=false"}, "all", true},
	} {
		cfg, _, err := parseServeFlags(tc.args, noEnv)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if cfg.Interaction != tc.mode || cfg.RemoteInteraction != tc.remote {
			t.Errorf("%v: mode %q remote %v, want %q %v", tc.args, cfg.Interaction, cfg.RemoteInteraction, tc.mode, tc.remote)
		}
	}
	if _, _, err := parseServeFlags([]string{"--remote-interaction=some"}, noEnv); err == nil {
		t.Fatal("--remote-interaction=some accepted")
	}
}

// A wrong flag value is one line that names the flag, the value and what
// it takes, once, without the list of every flag after it.
func TestServeFlagErrorsNameTheFlagAndItsValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--remote-interaction=bogus"}, `--remote-interaction "bogus": use none, token or all (true is all, false none)`},
		{[]string{"--open=maybe"}, `--open "maybe": use auto, true or false`},
		{[]string{"--log-level", "loud"}, `--log-level "loud": use debug, info, warn or error`},
		{[]string{"--max-clients", "many"}, `--max-clients "many": takes a whole number, e.g. --max-clients=500`},
		// What the value is, with an example: a boolean is not "not a number".
		{[]string{"--mdns=maybe"}, `--mdns "maybe": takes true or false, e.g. --mdns=false`},
		{[]string{"--lua-timeout=fast"}, `--lua-timeout "fast": takes a duration such as 500ms, 2s or 1m, e.g. --lua-timeout=250ms`},
		// A port alone is a common slip: the form that works is suggested.
		{[]string{"--addr", "8080"}, `--addr "8080": a port is written after a colon, e.g. --addr :8080 (every interface) or --addr 127.0.0.1:8080 (this machine only)`},
		{[]string{"--host-addr", "8081"}, `--host-addr "8081": a port is written after a colon, e.g. --host-addr 127.0.0.1:8081`},
		{[]string{"--addr", "localhost"}, `--addr "localhost": give host:port, e.g. --addr :8080`},
		{[]string{"--colour", "red"}, `there is no flag --colour (companion serve -h lists them)`},
		{[]string{"--remote-interaction", "bogus"}, `unexpected argument "bogus"`},
	} {
		_, _, err := parseServeFlags(tc.args, noEnv)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: error %v, want %s", tc.args, err, tc.want)
		}
	}
	// Through the command: one line on stderr, exit 2.
	var out, errOut bytes.Buffer
	if code := run([]string{"serve", "--remote-interaction=bogus"}, &out, &errOut); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if lines := strings.Split(strings.TrimSpace(errOut.String()), "\n"); len(lines) != 1 || strings.Count(errOut.String(), "none, token or all") != 1 {
		t.Fatalf("stderr:\n%s\nwant one line naming the values once", errOut.String())
	}
}
