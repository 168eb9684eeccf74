package systems

import (
	"sync"
	"time"
)

// ReloadStatus is what the watcher knows of hot reload: which folder it
// watches and how the last reload went. The watcher records into the one
// its WatchOptions give it; the host console (GET /host/api/system) reads
// it. The zero value is ready to use and a nil *ReloadStatus records
// nothing (its methods still return the result), so a server without a
// watcher needs no special case.
type ReloadStatus struct {
	mu   sync.Mutex
	dir  string
	last *ReloadResult
}

// ReloadResult is the outcome of one hot reload.
type ReloadResult struct {
	OK bool `json:"ok"`
	// Error is the load error, file:line: message, when OK is false (the
	// previous version keeps serving).
	Error string `json:"error,omitempty"`
	// Version is the system version swapped in, when OK.
	Version string    `json:"version,omitempty"`
	Time    time.Time `json:"time"`
	// LatencyMs is how long a successful reload took to compile, validate
	// and swap in, from the end of the debounce window (the watcher's
	// latency); the quiet time waited after the edit is not included.
	LatencyMs float64 `json:"latencyMs,omitempty"`
}

// Watching records the folder being watched for edits.
func (s *ReloadStatus) Watching(dir string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.dir = dir
	s.mu.Unlock()
}

// Reloaded records a successful reload and returns what it recorded.
func (s *ReloadStatus) Reloaded(version string, latency time.Duration) ReloadResult {
	return s.record(ReloadResult{OK: true, Version: version, Time: time.Now().UTC(),
		LatencyMs: float64(latency.Microseconds()) / 1000})
}

// Failed records a reload that failed, whose error's text names file and
// line, and returns what it recorded.
func (s *ReloadStatus) Failed(err error) ReloadResult {
	text := "unknown error"
	if err != nil {
		text = err.Error()
	}
	return s.record(ReloadResult{OK: false, Error: text, Time: time.Now().UTC()})
}

func (s *ReloadStatus) record(r ReloadResult) ReloadResult {
	if s == nil {
		return r
	}
	s.mu.Lock()
	s.last = &r
	s.mu.Unlock()
	return r
}

// Last returns the watched folder ("" when none) and a copy of the last
// reload result (nil before the first reload).
func (s *ReloadStatus) Last() (dir string, last *ReloadResult) {
	if s == nil {
		return "", nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last != nil {
		r := *s.last
		last = &r
	}
	return s.dir, last
}
