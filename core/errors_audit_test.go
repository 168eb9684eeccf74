package core_test

import (
	"strings"
	"testing"
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
