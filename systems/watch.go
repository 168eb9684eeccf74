package systems

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/vttapp/companion/core"
)

// DefaultDebounce is how long the watcher waits after the last change of a
// burst (an editor saving several files) before it reloads.
const DefaultDebounce = 50 * time.Millisecond

// WatchOptions configure hot reload.
type WatchOptions struct {
	// Load are the options each new version is loaded with.
	Load Options
	// Debounce is the quiet time after the last change before reloading
	// (default 50 ms).
	Debounce time.Duration
	// Logger receives the news of each reload (default slog.Default()).
	Logger *slog.Logger
	// Status, when set, records the folder watched and the outcome of
	// each reload, for the host console.
	Status *ReloadStatus
	// Publisher, when set, is told of each version swapped in with a
	// reload event, {"system", "version"}, so that clients fetch the new
	// definitions. Give it the engine.Service, whose Publish orders the event
	// with committed writes; a failed reload publishes nothing.
	Publisher core.Publisher
}

// Watcher reloads a system folder when its files change. Reload is the
// one way a new version goes live: Run calls it after each burst of
// changes, and a test calls it to reload at a moment of its choosing.
type Watcher struct {
	dir    string
	holder *Holder
	opts   WatchOptions
	fsw    *fsnotify.Watcher

	reloading sync.Mutex // one reload at a time
}

// Watch watches dir and swaps reloaded versions into h until ctx is done.
// It returns an error only when watching cannot start.
func Watch(ctx context.Context, dir string, h *Holder, opts WatchOptions) error {
	w, err := NewWatcher(dir, h, opts)
	if err != nil {
		return err
	}
	return w.Run(ctx)
}

// NewWatcher starts watching dir (and every folder inside it). Changes are
// acted upon once Run runs; events arriving before are kept. Run stops
// watching when it returns; a watcher that is never run is closed with
// Close.
func NewWatcher(dir string, h *Holder, opts WatchOptions) (*Watcher, error) {
	opts.Status.Watching(dir)
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	w := &Watcher{dir: dir, holder: h, opts: opts, fsw: fsw}
	if err := w.addTree(dir); err != nil {
		fsw.Close()
		return nil, err
	}
	return w, nil
}

// addTree watches root and its sub-folders (fsnotify is not recursive).
func (w *Watcher) addTree(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return fmt.Errorf("watch %s: %w", root, err)
			}
			return nil // vanished meanwhile
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir // .git and the like
		}
		if err := w.fsw.Add(p); err != nil {
			return fmt.Errorf("watch %s: %w", p, err)
		}
		return nil
	})
}

// ignored reports editor temp files: vim swap files and its 4913 probe,
// backups ending in ~, Emacs lock files .#*, and hidden files.
func ignored(name string) bool {
	base := filepath.Base(name)
	switch {
	case base == "4913",
		strings.HasSuffix(base, "~"),
		strings.HasPrefix(base, ".#"),
		strings.HasSuffix(base, ".swp"), strings.HasSuffix(base, ".swx"), strings.HasSuffix(base, ".swo"),
		strings.HasPrefix(base, "."):
		return true
	}
	return false
}

// Close stops watching. Run calls it when it returns; closing twice is
// harmless.
func (w *Watcher) Close() error { return w.fsw.Close() }

// Run handles changes until ctx is done, then stops watching.
func (w *Watcher) Run(ctx context.Context) error {
	defer w.fsw.Close()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	pending := false
	for {
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return nil
			}
			if ignored(ev.Name) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				if info, err := os.Stat(ev.Name); err == nil && info.IsDir() {
					if err := w.addTree(ev.Name); err != nil {
						w.opts.Logger.Warn("system watcher", "err", err)
					}
				}
			}
			if ev.Op == fsnotify.Chmod {
				continue // touching permissions changes nothing we read
			}
			pending = true
			timer.Reset(w.opts.Debounce)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return nil
			}
			w.opts.Logger.Warn("system watcher", "dir", w.dir, "err", err)
		case <-timer.C:
			if pending {
				pending = false
				w.Reload()
			}
		}
	}
}

// Reload compiles the folder off to the side and, when it loads, swaps it
// into the holder, publishes reload and records the outcome; when it does
// not, the previous version keeps serving and the error (file:line:
// message, every problem) is logged and recorded. It returns the outcome
// it recorded; the latency is the compiling, validating and swapping, from
// the call. Safe for concurrent use: reloads run one at a time.
func (w *Watcher) Reload() ReloadResult {
	w.reloading.Lock()
	defer w.reloading.Unlock()
	start := time.Now()
	sys, err := LoadDir(w.dir, w.opts.Load)
	if err != nil {
		w.opts.Logger.Error("system reload failed; the previous version keeps serving", "dir", w.dir, "problems", err.Error())
		return w.opts.Status.Failed(err)
	}
	old := w.holder.Swap(sys)
	latency := time.Since(start)
	if old != nil && old != sys {
		old.Close()
	}
	w.opts.Logger.Info("system reloaded", "id", sys.ID(), "version", sys.Version(), "latency", latency)
	result := w.opts.Status.Reloaded(sys.Version(), latency)
	if w.opts.Publisher != nil {
		w.opts.Publisher.Publish(core.Event{Name: core.EventReload, Data: map[string]any{"system": sys.ID(), "version": sys.Version()}})
	}
	return result
}
