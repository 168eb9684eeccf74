package luapattern

import (
	"errors"
	"strings"
	"testing"
)

func TestFindAsksToGoOnAndStopsWithTheCallersError(t *testing.T) {
	stop := errors.New("deadline")
	calls := 0
	src := []byte(strings.Repeat("a", 300))
	_, err := Find(".-.-.-b", src, 0, 1, func() error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if Cause(err) != stop || calls != 3 {
		t.Fatalf("err %v, cause %v after %d checks", err, Cause(err), calls)
	}
	// A pattern error is not a stop.
	if _, err := Find("[a", src, 0, 1, nil); err == nil || Cause(err) != nil {
		t.Fatalf("malformed pattern: %v (cause %v)", err, Cause(err))
	}
	// Without a check, a small match runs to the end.
	m, err := Find("(a+)", []byte("xaab"), 0, 1, nil)
	if err != nil || len(m) != 1 || m[0].Capture(2) != 1 || m[0].Capture(3) != 3 {
		t.Fatalf("%v %v", m, err)
	}
}

func TestRecursionIsBounded(t *testing.T) {
	src := []byte(strings.Repeat("a", maxRecursionLevel+10))
	if _, err := Find("a*b", src, 0, 1, nil); err == nil || !strings.Contains(err.Error(), "too complex") {
		t.Fatalf("got %v", err)
	}
}
