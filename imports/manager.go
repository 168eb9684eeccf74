package imports

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/download"
	"github.com/vttapp/companion/imports/export"
)

// Config wires a Manager.
type Config struct {
	Service     *engine.Service
	DataDir     string
	Collections Collections
	// Client is the base HTTP client for manifests and downloads (tests
	// inject a TLS test server's client). Nil means http.DefaultClient.
	Client *http.Client
	Limits Limits
	// AppVersion is checked against a package's compatibility bounds.
	AppVersion string
	// OnChange, when set, receives a copy of an offer after every change
	// (status, progress, package details), e.g. to push it to the host
	// console. It must not block.
	OnChange func(Offer)
	// MaxOffers caps the offers kept in memory (default 100); the oldest
	// finished ones make room first.
	MaxOffers int
	// Log, when set, receives failures that are bugs (a panic while an
	// offer is processed in the background).
	Log *slog.Logger
	// OwnAddrs are the addresses this server listens on (the players' and
	// the host console's): no manifest, download or redirect ever connects
	// to them, whatever name or address form leads there (ownaddrs.go).
	OwnAddrs []net.Addr
	// MaxOffersPerAddress caps the offers one remote address has in the
	// list at once (default 5; offers.go).
	MaxOffersPerAddress int
}

// Manager holds the offers waiting for the person at the device and runs
// imports, updates and deletions for the host console.
type Manager struct {
	cfg     Config
	in      *Installer
	fetcher *download.Fetcher
	client  *ClientFolder

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	offers map[string]*offerState
	order  []string

	running activities // direct imports (activity.go)
}

// NewManager returns a Manager; Close stops its background work. Staging
// folders left in the data folder by a process that died mid-import are
// removed: one process owns a data folder (its SQLite database).
func NewManager(cfg Config) *Manager {
	// What an import interrupted by a stop left: its staged folder, and
	// the entities it staged in the store (legacy/compendium.go).
	os.RemoveAll(filepath.Join(cfg.DataDir, ".staging"))
	if cfg.Service != nil {
		if err := cfg.Service.DropStaged(context.Background(), ""); err != nil && cfg.Log != nil {
			cfg.Log.Warn("imports: cannot drop what an interrupted import staged", "err", err)
		}
	}
	cfg.Limits = cfg.Limits.WithDefaults()
	if cfg.MaxOffers <= 0 {
		cfg.MaxOffers = 100
	}
	if cfg.MaxOffersPerAddress <= 0 {
		cfg.MaxOffersPerAddress = DefaultMaxOffersPerAddress
	}
	in := NewInstaller(cfg.Service, cfg.DataDir, cfg.Collections)
	in.SetLimits(cfg.Limits)
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{
		cfg: cfg, in: in,
		fetcher: download.NewFetcher(cfg.Client, "Companion/"+cfg.AppVersion, cfg.OwnAddrs),
		client:  NewClientFolder(cfg.DataDir),
		ctx:     ctx, cancel: cancel,
		offers: map[string]*offerState{},
	}
}

// Installer returns the installer the manager uses.
func (m *Manager) Installer() *Installer { return m.in }

// Close cancels downloads in progress and waits for them to stop.
func (m *Manager) Close() {
	m.cancel()
	m.wg.Wait()
}

// go runs fn in the background, tracked by Close.
func (m *Manager) goBackground(fn func(ctx context.Context)) {
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		fn(m.ctx)
	}()
}

// download fetches a source into a temporary file under the data folder
// and returns its path and details; cleanup removes it.
func (m *Manager) download(ctx context.Context, raw string, progress download.Progress) (path string, got download.Fetched, cleanup func(), err error) {
	dir, err := m.in.site.NewStage()
	if err != nil {
		return "", download.Fetched{}, nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, "download")
	f, err := os.Create(path)
	if err != nil {
		cleanup()
		return "", download.Fetched{}, nil, core.Internal(err)
	}
	got, err = m.fetcher.Fetch(ctx, raw, m.cfg.Limits.MaxDownloadBytes, m.cfg.Limits.DownloadTimeout, f, progress)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = core.Internal(cerr)
	}
	if err != nil {
		cleanup()
		return "", download.Fetched{}, nil, err
	}
	return path, got, cleanup, nil
}

// ImportURL downloads a source (URL policy, limits, redirects re-checked)
// and installs it, for the person at the device.
func (m *Manager) ImportURL(ctx context.Context, raw, destination string, progress download.Progress) (Result, error) {
	path, got, cleanup, err := m.download(ctx, raw, progress)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()
	report, done := m.running.start(got.Name, m.now().Format(time.RFC3339Nano))
	defer done()
	return m.in.InstallFile(ctx, path, got.Name, InstallOptions{Destination: destination, Name: got.Name, Progress: report})
}

// ImportFile installs an uploaded file, read whole under the download size
// limit.
func (m *Manager) ImportFile(ctx context.Context, r io.Reader, name, destination string) (Result, error) {
	path, cleanup, err := m.receiveUpload(r)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()
	report, done := m.running.start(name, m.now().Format(time.RFC3339Nano))
	defer done()
	return m.in.InstallFile(ctx, path, name, InstallOptions{Destination: destination, Name: name, Progress: report})
}

// receiveUpload saves an uploaded file in a staging folder, refusing it
// past the download size limit; cleanup removes it.
func (m *Manager) receiveUpload(r io.Reader) (path string, cleanup func(), err error) {
	dir, err := m.in.site.NewStage()
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, "upload")
	f, err := os.Create(path)
	if err != nil {
		cleanup()
		return "", nil, core.Internal(err)
	}
	n, err := io.Copy(f, io.LimitReader(r, m.cfg.Limits.MaxDownloadBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		err = core.Invalidf("the upload cannot be read: %v", err)
	case n > m.cfg.Limits.MaxDownloadBytes:
		err = core.TooLargef("the file is larger than %d bytes", m.cfg.Limits.MaxDownloadBytes)
	}
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return path, cleanup, nil
}

// Modules lists the installed modules.
func (m *Manager) Modules(ctx context.Context) ([]*core.Module, error) {
	list, err := m.cfg.Service.Modules(ctx)
	if list == nil {
		list = []*core.Module{}
	}
	return list, err
}

// DeleteModule deletes a module, every row it owns and its folder.
func (m *Manager) DeleteModule(ctx context.Context, id string) error {
	if err := m.cfg.Service.ChangeContent(ctx, func(tx core.Tx) (core.Object, error) {
		mod, err := tx.Module(id)
		if core.IsNotFound(err) {
			return nil, core.NotFoundf("no module with id '%s'", id)
		}
		if err != nil {
			return nil, err
		}
		if err := tx.DeleteModule(id); err != nil {
			return nil, err
		}
		return core.Object{"reason": "moduleDeleted", "id": id, "name": mod.Name}, nil
	}); err != nil {
		return err
	}
	if content.CheckFolderID("module", id) != nil {
		return nil // no folder can have this name
	}
	if err := os.RemoveAll(filepath.Join(m.cfg.DataDir, "modules", id)); err != nil {
		return core.Internal(err)
	}
	return nil
}

// MapSummary is a row of GET /host/api/maps.
type MapSummary struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
	Image    string `json:"image,omitempty"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	GridSize int    `json:"gridSize"`
	Walls    int    `json:"walls"`
	Doors    int    `json:"doors"`
	Lights   int    `json:"lights"`
	Tokens   int    `json:"tokens"`
	// GridPending: a map made from an image, waiting for its grid.
	GridPending bool `json:"gridPending,omitempty"`
}

// Maps lists every map with its counts.
func (m *Manager) Maps(ctx context.Context) ([]MapSummary, error) {
	maps, err := m.cfg.Service.AllMaps(ctx)
	if err != nil {
		return nil, err
	}
	out := []MapSummary{}
	for _, mp := range maps {
		s := MapSummary{ID: mp.ID, Name: mp.Name, Owner: mp.Owner, Image: mp.Image, Width: mp.Width, Height: mp.Height,
			GridSize: mp.GridSize, Lights: len(mp.Lights), Tokens: len(mp.Tokens), GridPending: mp.GridPending}
		for _, w := range mp.Walls {
			if w.IsDoor() {
				s.Doors++
			} else {
				s.Walls++
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// Map returns one map document with its walls, doors, lights and tokens.
func (m *Manager) Map(ctx context.Context, id string) (*core.Map, error) {
	return m.cfg.Service.Map(ctx, id)
}

// now is the manager's clock.
func (m *Manager) now() time.Time { return time.Now().UTC() }

// timeAfter is the polling period of WaitChecked.
func timeAfter() <-chan time.Time { return time.After(10 * time.Millisecond) }

// Export stages the archive of a module or campaign (package export);
// the caller streams it with WriteZip and removes it with Close.
func (m *Manager) Export(ctx context.Context, kind, id string) (*export.Archive, error) {
	return m.in.Export(ctx, kind, id)
}

// CampaignSummary is a row of GET /host/api/campaigns.
type CampaignSummary struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	System  string `json:"system"`
	Primary bool   `json:"primary"`
}

// Campaigns lists every campaign, of every system.
func (m *Manager) Campaigns(ctx context.Context) ([]CampaignSummary, error) {
	list, err := m.cfg.Service.Campaigns(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]CampaignSummary, 0, len(list))
	for _, c := range list {
		out = append(out, CampaignSummary{ID: c.ID, Name: c.Name, System: c.System, Primary: c.Primary})
	}
	return out, nil
}
