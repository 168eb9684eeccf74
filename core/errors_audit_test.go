package core_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vttapp/companion/core"
)

func TestAuditClipCutsOnARuneBoundary(t *testing.T) {
	if got := core.Clip("short"); got != "short" {
		t.Fatalf("Clip(short) = %q", got)
	}
	exact := strings.Repeat("a", 100)
	if got := core.Clip(exact); got != exact {
		t.Fatalf("a 100-byte value was clipped: %q", got)
	}
	long := strings.Repeat("€", 50) // 3 bytes each: 100 falls inside a rune
	got := core.Clip(long)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > 100+len("…") || !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) {
		t.Fatalf("Clip = %q (%d bytes)", got, len(got))
	}
}

// TestAuditJSONErrorTextForDates: a bad date names the format expected,
// not Go's reference layout.
func TestAuditJSONErrorTextForDates(t *testing.T) {
	var v struct {
		Created time.Time `json:"created"`
	}
	for _, in := range []string{`{"created":"yesterday"}`, `{"created":"2026-13-01T00:00:00Z"}`, `{"created":5}`} {
		err := json.Unmarshal([]byte(in), &v)
		got := core.JSONErrorText(err)
		if strings.Contains(got, "2006") || !strings.Contains(got, "ISO 8601") {
			t.Fatalf("%s: %q", in, got)
		}
	}
	var n struct {
		X float64 `json:"x"`
	}
	got := core.JSONErrorText(json.Unmarshal([]byte(`{"x":1e400}`), &n))
	if !strings.Contains(got, "out of range") || !strings.Contains(got, "'x'") {
		t.Fatalf("overflow: %q", got)
	}
}
