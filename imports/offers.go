package imports

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/download"
)

// Offer statuses.
const (
	StatusPending     = "pending"
	StatusDownloading = "downloading"
	StatusInstalled   = "installed"
	StatusDeclined    = "declined"
	StatusFailed      = "failed"
)

// Offer is an import waiting for, or confirmed by, the person at the device.
type Offer struct {
	ID       string `json:"id"`
	Manifest string `json:"manifest,omitempty"`
	URL      string `json:"url,omitempty"`
	// File is the name of a file opened on the device (fileoffer.go).
	File string `json:"file,omitempty"`
	// Type is "client" for a web client to install (client.go); empty
	// for content.
	Type string `json:"type,omitempty"`
	// From says who offered it: "api <address>", "link" or "host".
	From string `json:"from"`
	// Host is the host the content comes from.
	Host   string `json:"host"`
	Status string `json:"status"`
	// Checking is true while a manifest is being fetched.
	Checking bool     `json:"checking"`
	Progress Transfer `json:"progress"`
	// Install is how far installing has come once downloaded, for an
	// install of many entries (a compendium); nil until it reports.
	Install *InstallProgress `json:"install,omitempty"`
	Error   string           `json:"error,omitempty"`
	Package *PackageInfo     `json:"package,omitempty"`
	Result  *Result          `json:"result,omitempty"`
	Created string           `json:"created"`
}

// Transfer is a download's progress: bytes done and total (-1 unknown).
type Transfer struct {
	Done  int64 `json:"done"`
	Total int64 `json:"total"`
}

// PackageInfo is what a manifest offer shows: the package and whether
// that version, or another one, is installed.
type PackageInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Version     string `json:"version"`
	System      string `json:"system,omitempty"`
	Description string `json:"description,omitempty"`
	Changelog   string `json:"changelog,omitempty"`
	// Installed is "none", "same" (this version), "older" (an older
	// version: accepting updates it) or "newer".
	Installed        string `json:"installed"`
	InstalledVersion string `json:"installedVersion,omitempty"`
	Compatible       bool   `json:"compatible"`
}

type offerState struct {
	Offer
	// address is who offered it over the network, as offers are counted
	// per address (core.AddressKey); empty for the device's own offers.
	address string
	pkg     *Package
	done    chan struct{} // closed when the offer settles (installed, declined, failed)
	settled bool
	// staged is a file offer's copy in the staging folder, removed by
	// unstage (fileoffer.go).
	staged  string
	unstage func()
	// acted: the person at the device accepted, declined or retried it.
	// Until then the offer counts for its address whatever became of its
	// manifest (makeRoomForLocked).
	acted bool
}

// Offer records an import request as an offer on the host console. For a
// manifest, the manifest is fetched in the background so that the offer
// shows the package; nothing is downloaded or installed before Accept.
// At most MaxOffers offers may be unsettled at once; past that the request
// is refused, so that a flood of requests cannot grow memory or make the
// device fetch manifests without end.
func (m *Manager) Offer(src Source, from string) (Offer, error) {
	return m.offer(src, from, "", "", nil)
}

// DefaultMaxOffersPerAddress is how many offers one remote address may have
// in the list at once (Config.MaxOffersPerAddress). Without it one client
// filled the list (100 offers) in under a second, and a real offer from
// another device was refused or lost among them.
const DefaultMaxOffersPerAddress = 5

// OfferFrom is Offer for a request made over the network from address
// (POST /api/import). One address has at most MaxOffersPerAddress offers
// in the list: its oldest one the person at the device has acted on
// (accepted, declined) makes room for a new one, and when none has been
// the request is refused. An offer whose manifest could not be fetched
// counts like one waiting: the fetch's outcome never frees a place, so
// the offerer cannot learn it, nor send the device fetching without end.
// Loopback (this machine) is not counted; an IPv6 address counts with the
// others of its /64, which one device may take as many of as it likes.
func (m *Manager) OfferFrom(src Source, address string) (Offer, error) {
	return m.offer(src, "api "+address, "", core.AddressKey(address), nil)
}

// offer records an offer of the given type (empty for content), made from
// the address counted under key ("": not counted); init, when given,
// completes it before anyone can see it.
func (m *Manager) offer(src Source, from, offerType, key string, init func(st *offerState)) (Offer, error) {
	st := &offerState{Offer: Offer{
		ID: core.NewID(), Manifest: src.Manifest, URL: src.URL, Type: offerType, From: from,
		Status: StatusPending, Progress: Transfer{Total: -1}, Created: m.now().Format("2006-01-02T15:04:05Z"),
	}, address: key, done: make(chan struct{})}
	if init != nil {
		init(st)
	}
	if u, err := url.Parse(src.Target()); err == nil {
		st.Host = u.Hostname()
	}
	st.Checking = src.Manifest != ""
	m.mu.Lock()
	unsettled := 0
	for _, o := range m.offers {
		if !o.settled {
			unsettled++
		}
	}
	if unsettled >= m.cfg.MaxOffers {
		m.mu.Unlock()
		return Offer{}, core.Invalidf("Too many import offers are waiting on the device; try again later")
	}
	if key != "" && !m.makeRoomForLocked(key) {
		m.mu.Unlock()
		return Offer{}, core.Invalidf("Too many import offers from this address are waiting on the device; try again when they are accepted or declined")
	}
	m.offers[st.ID] = st
	m.order = append(m.order, st.ID)
	m.evictLocked()
	snapshot := st.Offer
	m.mu.Unlock()
	m.changed(snapshot)
	if src.Manifest != "" {
		m.goBackground(func(ctx context.Context) { m.checkManifest(ctx, st.ID, src.Manifest) })
	}
	return snapshot, nil
}

// makeRoomForLocked makes room for one more offer from the address counted
// under key: under MaxOffersPerAddress there is room; at it, its oldest
// settled offer the person acted on is forgotten; false when there is none
// (every one waits, or failed before anyone saw it).
func (m *Manager) makeRoomForLocked(key string) bool {
	count, oldestSettled := 0, -1
	for i, id := range m.order {
		if st := m.offers[id]; st.address == key {
			count++
			if st.settled && st.acted && oldestSettled < 0 {
				oldestSettled = i
			}
		}
	}
	switch {
	case count < m.cfg.MaxOffersPerAddress:
		return true
	case oldestSettled < 0:
		return false
	}
	delete(m.offers, m.order[oldestSettled])
	m.order = append(m.order[:oldestSettled], m.order[oldestSettled+1:]...)
	return true
}

// evictLocked forgets the oldest settled offers beyond MaxOffers.
func (m *Manager) evictLocked() {
	for i := 0; len(m.order) > m.cfg.MaxOffers && i < len(m.order); {
		if st := m.offers[m.order[i]]; st.settled {
			if st.unstage != nil {
				st.unstage()
			}
			delete(m.offers, st.ID)
			m.order = append(m.order[:i], m.order[i+1:]...)
			continue
		}
		i++
	}
}

// checkManifest fetches an offer's manifest and fills in the package,
// under the offer's own bounds (OfferManifestBytes, OfferManifestTimeout):
// anyone on the network may make the device fetch it.
func (m *Manager) checkManifest(ctx context.Context, id, manifest string) {
	var pkg *Package
	var info *PackageInfo
	lim := m.cfg.Limits.WithDefaults()
	lim.MaxManifestBytes, lim.ManifestTimeout = lim.OfferManifestBytes, lim.OfferManifestTimeout
	err := m.recovered(func() (err error) {
		if pkg, err = FetchPackage(ctx, m.fetcher, manifest, lim); err == nil {
			info, err = m.packageInfo(ctx, pkg)
		}
		return err
	})
	m.update(id, func(st *offerState) {
		st.Checking = false
		if err != nil {
			m.settleLocked(st, StatusFailed, core.MessageOf(err))
			return
		}
		st.pkg, st.Package = pkg, info
	})
}

// packageInfo compares a package with what is installed.
func (m *Manager) packageInfo(ctx context.Context, p *Package) (*PackageInfo, error) {
	info := &PackageInfo{ID: p.ID, Name: p.Name, Type: p.Type, Version: p.Version, System: p.System,
		Description: p.Description, Changelog: p.Changelog, Installed: "none", Compatible: p.Compatible(m.cfg.AppVersion)}
	installed := ""
	if p.Type == KindModule {
		mod, err := m.cfg.Service.Module(ctx, p.ID)
		switch {
		case err == nil:
			installed = mod.Version
		case !core.IsNotFound(err):
			return nil, err
		}
	} else if data, err := os.ReadFile(filepath.Join(m.cfg.DataDir, "systems", p.ID, content.SystemFile)); err == nil {
		installed = content.SystemVersion(data)
	} else if p.ID == m.cfg.Collections.SystemID() {
		installed = "0.0.0" // the loaded system, not installed from a package
	}
	if installed != "" {
		info.InstalledVersion = installed
		switch c := CompareVersions(installed, p.Version); {
		case c == 0:
			info.Installed = "same"
		case c < 0:
			info.Installed = "older"
		default:
			info.Installed = "newer"
		}
	}
	return info, nil
}

// recovered runs work that happens on a background goroutine, where a
// panic would stop the whole server: a panic becomes an internal error
// (its deferred clean-ups have run while unwinding), so the offer fails,
// and its stack goes to the log when the manager has one.
func (m *Manager) recovered(work func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = core.Internal(fmt.Errorf("panic while importing: %v", r))
			if m.cfg.Log != nil {
				m.cfg.Log.Error("import failed with a panic", "panic", r, "stack", string(debug.Stack()))
			}
		}
	}()
	return work()
}

// Offers lists the offers, oldest first.
func (m *Manager) Offers() []Offer {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Offer, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, m.offers[id].Offer)
	}
	return out
}

// Get returns one offer.
func (m *Manager) Get(id string) (Offer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.offers[id]
	if !ok {
		return Offer{}, core.NotFoundf("no import offer with id '%s'", id)
	}
	return st.Offer, nil
}

// Decline closes a pending offer without downloading anything.
func (m *Manager) Decline(id string) (Offer, error) {
	var out Offer
	err := m.update(id, func(st *offerState) {
		if st.Status != StatusPending {
			return
		}
		st.acted = true
		m.settleLocked(st, StatusDeclined, "")
	})
	if err == nil {
		out, err = m.Get(id)
		if err == nil && out.Status != StatusDeclined {
			err = core.Conflictf("the offer is %s and can no longer be declined", out.Status)
		}
	}
	if err == nil {
		m.dropStaged(id)
	}
	return out, err
}

// Accept confirms a pending offer: the download starts in the background
// (progress on the offer) and the content is installed when it completes.
// destination files a loose collection or a map into a module or campaign.
func (m *Manager) Accept(id, destination string) (Offer, error) {
	var out Offer
	var refusal error
	var pkg *Package
	var staged string
	err := m.update(id, func(st *offerState) {
		switch {
		case st.Status != StatusPending:
			refusal = core.Conflictf("the offer is %s and can no longer be accepted", st.Status)
		case st.Checking:
			refusal = core.Conflictf("the manifest is still being fetched; try again in a moment")
		case st.Package != nil && !st.Package.Compatible:
			refusal = core.Conflictf("%s %s is not compatible with this application version (%s)", st.Package.Name, st.Package.Version, m.cfg.AppVersion)
		case st.Package != nil && st.Package.Installed != "none" && st.Package.Installed != "older":
			refusal = core.Conflictf("%s version %s is already installed", st.Package.Name, st.Package.InstalledVersion)
		case st.File != "" && st.staged == "":
			refusal = core.Conflictf("the file %s is no longer held; open it again", st.File)
		default:
			st.Status = StatusDownloading
			st.acted = true
			pkg = st.pkg
			staged = st.staged
		}
		out = st.Offer
	})
	if err != nil {
		return Offer{}, err
	}
	if refusal != nil {
		return out, refusal
	}
	manifest := out.Manifest
	m.goBackground(func(ctx context.Context) {
		var res Result
		err := m.recovered(func() (err error) {
			if out.Type == KindClient {
				res, err = m.runClientAccepted(ctx, id, out.URL)
				return err
			}
			if staged != "" {
				res, err = m.runAcceptedFile(ctx, id, staged, out.File, destination)
				return err
			}
			res, err = m.runAccepted(ctx, id, manifest, out.URL, pkg, destination)
			return err
		})
		m.update(id, func(st *offerState) {
			if err != nil {
				m.settleLocked(st, StatusFailed, core.MessageOf(err))
				return
			}
			st.Result = &res
			m.settleLocked(st, StatusInstalled, "")
		})
	})
	return out, nil
}

// runAccepted downloads and installs an accepted offer.
func (m *Manager) runAccepted(ctx context.Context, id, manifest, raw string, pkg *Package, destination string) (Result, error) {
	progress := func(done, total int64) {
		m.update(id, func(st *offerState) {
			if st.Status == StatusDownloading { // never revive a settled offer's progress
				st.Progress = Transfer{Done: done, Total: total}
			}
		})
	}
	opt := InstallOptions{Destination: destination}
	if pkg != nil {
		raw = pkg.Download
		opt = InstallOptions{Package: manifest, PackageID: pkg.ID, Expect: pkg.Type}
		if pkg.Type == KindModule {
			mod, err := m.cfg.Service.Module(ctx, pkg.ID)
			switch {
			case err == nil:
				// A manifest from elsewhere that reuses the id must not
				// replace the module and take over its updates.
				if mod.Package != "" && mod.Package != manifest {
					return Result{}, core.Conflictf("module '%s' (id '%s') is installed from %s; this package comes from %s. Delete the module first to install it from another source", mod.Name, mod.ID, mod.Package, manifest)
				}
				opt.Replace = pkg.ID
			case !core.IsNotFound(err):
				return Result{}, err
			}
		}
	}
	path, got, cleanup, err := m.download(ctx, raw, progress)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()
	if pkg != nil {
		if err := download.CheckSHA256(pkg.SHA256, got.SHA256); err != nil {
			return Result{}, err
		}
	}
	opt.Name = got.Name
	opt.Progress = m.offerProgress(id)
	return m.in.InstallFile(ctx, path, got.Name, opt)
}

// Wait blocks until an offer settles (installed, declined or failed) or
// ctx ends, and returns it.
func (m *Manager) Wait(ctx context.Context, id string) (Offer, error) {
	m.mu.Lock()
	st, ok := m.offers[id]
	m.mu.Unlock()
	if !ok {
		return Offer{}, core.NotFoundf("no import offer with id '%s'", id)
	}
	select {
	case <-st.done:
	case <-ctx.Done():
	}
	return m.Get(id)
}

// WaitChecked blocks until an offer's manifest has been fetched.
func (m *Manager) WaitChecked(ctx context.Context, id string) (Offer, error) {
	for {
		o, err := m.Get(id)
		if err != nil || !o.Checking || ctx.Err() != nil {
			return o, err
		}
		select {
		case <-ctx.Done():
		case <-timeAfter():
		}
	}
}

// update changes an offer under the lock and reports the change.
func (m *Manager) update(id string, fn func(st *offerState)) error {
	m.mu.Lock()
	st, ok := m.offers[id]
	if !ok {
		m.mu.Unlock()
		return core.NotFoundf("no import offer with id '%s'", id)
	}
	fn(st)
	snapshot := st.Offer
	m.mu.Unlock()
	m.changed(snapshot)
	return nil
}

// settleLocked moves an offer to a final status. A failed offer is in one
// clear state: not checking, no download in progress, the reason in Error
// (logged, see offerlife.go).
func (m *Manager) settleLocked(st *offerState, status, errText string) {
	st.Status, st.Error = status, errText
	if status == StatusFailed {
		st.Checking, st.Progress, st.Install = false, Transfer{Total: -1}, nil
		m.logFailure(st.Offer)
	}
	if !st.settled {
		st.settled = true
		close(st.done)
	}
}

func (m *Manager) changed(o Offer) {
	if m.cfg.OnChange != nil {
		m.cfg.OnChange(o)
	}
}
