package content

import (
	"sync"
	"time"
)

// Stages of an install that reports progress.
const (
	StageReading = "reading" // reading and mapping the entries of a file
	StageWriting = "writing" // writing the rows in one transaction
)

// InstallProgress is how far an install of many entries has come: the
// bytes of the file read so far (Done of Total) while reading, the rows
// written (Done of Total) while writing, and the entries mapped.
type InstallProgress struct {
	Stage   string `json:"stage"`
	Done    int64  `json:"done"`
	Total   int64  `json:"total"`
	Entries int    `json:"entries"`
}

// progressEvery is how often progress is reported at most: often enough
// for a bar that moves, rarely enough to cost nothing.
const progressEvery = 100 * time.Millisecond

// Throttle calls report with the latest progress at most every
// progressEvery, and always for the last one (flush).
type Throttle struct {
	report func(InstallProgress)
	mu     sync.Mutex
	last   time.Time
}

// NewThrottle returns a Throttle over report (which may be nil: nothing
// is reported then).
func NewThrottle(report func(InstallProgress)) *Throttle {
	return &Throttle{report: report}
}

// Note reports p if enough time has passed since the last report.
func (t *Throttle) Note(p InstallProgress) {
	if t == nil || t.report == nil {
		return
	}
	t.mu.Lock()
	now := time.Now()
	due := now.Sub(t.last) >= progressEvery
	if due {
		t.last = now
	}
	t.mu.Unlock()
	if due {
		t.report(p)
	}
}

// Flush reports p now.
func (t *Throttle) Flush(p InstallProgress) {
	if t == nil || t.report == nil {
		return
	}
	t.mu.Lock()
	t.last = time.Now()
	t.mu.Unlock()
	t.report(p)
}
