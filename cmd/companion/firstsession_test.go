package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/internal/testkit"
)

// What a new game master tripped on at the command line (issue 33).

// The commands that talk to a running server talk only to the one whose
// server.json is in the data folder they name (or the default one): with
// none running there, they say so, and never try the default address,
// where another data folder's server may listen.
func TestCommandsTalkOnlyToTheirDataFoldersServer(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("COMPANION_HOST_ADDR", "")
	t.Setenv("COMPANION_DATA", empty)
	xml := filepath.Join(t.TempDir(), "bats.xml")
	os.WriteFile(xml, []byte(`<compendium/>`), 0o644)
	for name, run := range map[string]func() (int, string){
		"health": func() (int, string) {
			var out, errOut bytes.Buffer
			return runHealth(nil, &out, &errOut), errOut.String()
		},
		"import": func() (int, string) {
			var out, errOut bytes.Buffer
			return runImport([]string{xml}, &out, &errOut), errOut.String()
		},
		"client install": func() (int, string) {
			var out, errOut bytes.Buffer
			return runClient([]string{"install", xml}, &out, &errOut), errOut.String()
		},
	} {
		code, stderr := run()
		if msg := errorLine(t, stderr); code != 1 || !strings.Contains(msg, "not running with the data folder "+empty) {
			t.Errorf("%s with no server on %s: exit %d, %q; want 1 and that no server runs with the folder", name, empty, code, msg)
		}
	}
	// The default folder (no COMPANION_DATA) is named too, with the command that starts it.
	t.Setenv("COMPANION_DATA", "")
	t.Setenv("XDG_DATA_HOME", empty)
	fs := newTestHostFlags()
	if _, err := fs.resolve(); err == nil || !strings.Contains(err.Error(), "not running with the data folder "+defaultDataDir()) ||
		!strings.Contains(err.Error(), "'companion serve'") {
		t.Errorf("no server on the default folder: %v", err)
	}
}

// newTestHostFlags is the host flags of a command, parsed with no arguments.
func newTestHostFlags() *hostTarget {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	h := addHostFlags(fs)
	fs.Parse(nil)
	return h
}

// `client install FILE --data DIR`: flags after the file, as import,
// export and backup take them, instead of the usage text.
func TestClientInstallTakesFlagsAfterTheFile(t *testing.T) {
	t.Setenv("COMPANION_HOST_ADDR", "")
	t.Setenv("COMPANION_DATA", t.TempDir()) // another folder: --data must win
	data := t.TempDir()
	startServe(t, data, "--empty")
	zip := filepath.Join(t.TempDir(), "web-client.zip")
	os.WriteFile(zip, testkit.Zip(t,
		"web-client/index.html", `<!doctype html><title>Trial client</title>`,
		"web-client/meta.json", `{"name":"Trial Client","version":"1.0.0"}`), 0o644)
	var out, errOut bytes.Buffer
	if code := runClient([]string{"install", zip, "--data", data}, &out, &errOut); code != 0 {
		t.Fatalf("client install FILE --data DIR: exit %d, %s", code, errOut.String())
	}
	var info struct {
		Installed bool
		Name      string
	}
	if err := json.Unmarshal(out.Bytes(), &info); err != nil || !info.Installed || info.Name != "Trial Client" {
		t.Fatalf("installed: %s %v", out.String(), err)
	}
	out.Reset()
	if code := runClient([]string{"remove", "--data", data}, &out, &errOut); code != 0 {
		t.Fatalf("client remove --data: exit %d, %s", code, errOut.String())
	}
}

// A data folder that is a file (or lies under one) stops the start with a
// sentence naming the file, not mkdir's words.
func TestDataFolderThatIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(file, []byte("campaign notes"), 0o644)
	for _, dir := range []string{file, filepath.Join(file, "companion")} {
		cfg, _, err := parseServeFlags([]string{"--data", dir, "--addr", "127.0.0.1:0", "--host-addr", "127.0.0.1:0", "--mdns=false", "--open=false"}, noEnv)
		if err != nil {
			t.Fatal(err)
		}
		err = serve(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
		want := "the data folder cannot be made: " + file + " is a file, not a folder (give another folder with --data)"
		if err == nil || err.Error() != want || strings.Contains(err.Error(), "mkdir") {
			t.Errorf("--data %s: %v\nwant %s", dir, err, want)
		}
	}
}

// A wrong value in the environment is worded as on the command line.
func TestEnvironmentFlagErrorsSayTheKind(t *testing.T) {
	env := func(k string) string {
		if k == "COMPANION_MDNS" {
			return "perhaps"
		}
		return ""
	}
	_, _, err := parseServeFlags(nil, env)
	if want := `COMPANION_MDNS="perhaps": takes true or false, e.g. --mdns=false`; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}
