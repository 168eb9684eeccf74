package hub

import (
	"context"
	"log/slog"
	"sync"

	"github.com/vttapp/companion/internal/ratelog"
)

// refusalLog writes the lines of refused upgrades. Anyone on the network
// can ask for an upgrade as often as it likes, and each refusal used to
// write a line: a flood filled the log. Each kind of refusal (its message)
// now writes at most one line per ratelog.DefaultEvery, which counts those
// left out since the last one.
type refusalLog struct {
	log *slog.Logger

	mu    sync.Mutex
	kinds map[string]*ratelog.Limiter
}

func (l *refusalLog) write(level slog.Level, msg string, args ...any) {
	l.mu.Lock()
	if l.kinds == nil {
		l.kinds = map[string]*ratelog.Limiter{}
	}
	limiter := l.kinds[msg]
	if limiter == nil {
		limiter = ratelog.New(ratelog.DefaultEvery)
		l.kinds[msg] = limiter
	}
	l.mu.Unlock()
	ok, leftOut := limiter.Allow()
	if !ok {
		return
	}
	if leftOut > 0 {
		args = append(args, "refused since the last line", leftOut)
	}
	l.log.Log(context.Background(), level, msg, args...)
}
