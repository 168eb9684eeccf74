package main

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// TestVersionPrintsWhatTheReleaseStamped: the values a release build sets
// with -ldflags -X (see .goreleaser.yaml) are what `companion version`
// prints, with the build number clients compare.
func TestVersionPrintsWhatTheReleaseStamped(t *testing.T) {
	saved := [3]string{core.Version, core.Commit, core.Date}
	t.Cleanup(func() { core.Version, core.Commit, core.Date = saved[0], saved[1], saved[2] })
	core.Version, core.Commit, core.Date = "1.4.2", "0123456789abcdef0123456789abcdef01234567", "2026-05-01T10:00:00Z"
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want := "companion 1.4.2 (build 1, commit 0123456789ab, 2026-05-01T10:00:00Z, " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	if out.String() != want {
		t.Fatalf("version printed %q, want %q", out.String(), want)
	}
}

// TestLogFormatJSON: --log-format json writes one JSON object a line;
// anything but text or json is refused with a clear error.
func TestLogFormatJSON(t *testing.T) {
	cfg, _, err := parseServeFlags([]string{"--log-format", "json"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	newLogger(&buf, cfg.LogLevel, cfg.LogFormat).Info("seeded demo content", "system", "dnd5e")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("not a JSON line: %v\n%s", err, buf.String())
	}
	if line["msg"] != "seeded demo content" || line["system"] != "dnd5e" || line["level"] != "INFO" {
		t.Fatalf("JSON line %v", line)
	}
	buf.Reset()
	newLogger(&buf, "info", "text").Info("hello", "k", "v")
	if !strings.Contains(buf.String(), `msg=hello k=v`) {
		t.Fatalf("text line %q", buf.String())
	}
	if _, _, err := parseServeFlags([]string{"--log-format", "xml"}, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "--log-format must be text or json") {
		t.Fatalf("--log-format xml: %v", err)
	}
}
