package imports

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/download"
)

// Update is the update state of one module installed from a manifest.
type Update struct {
	Module    string `json:"module"`
	Name      string `json:"name"`
	Package   string `json:"package"`
	Installed string `json:"installed"`
	Available string `json:"available,omitempty"`
	// Update is true when a newer, compatible version is available.
	Update     bool   `json:"update"`
	Compatible bool   `json:"compatible"`
	Changelog  string `json:"changelog,omitempty"`
	Error      string `json:"error,omitempty"`
}

// CheckUpdates fetches the manifest of every module that has one and
// compares versions; a manifest that cannot be fetched is reported on its
// module, not as a failure of the whole check.
func (m *Manager) CheckUpdates(ctx context.Context) ([]Update, error) {
	modules, err := m.Modules(ctx)
	if err != nil {
		return nil, err
	}
	out := []Update{}
	for _, mod := range modules {
		if mod.Package == "" {
			continue
		}
		u := Update{Module: mod.ID, Name: mod.Name, Package: mod.Package, Installed: mod.Version}
		pkg, err := m.moduleManifest(ctx, mod)
		if err != nil {
			u.Error = core.MessageOf(err)
		} else {
			u.Available, u.Changelog = pkg.Version, pkg.Changelog
			u.Compatible = pkg.Compatible(m.cfg.AppVersion)
			u.Update = u.Compatible && CompareVersions(pkg.Version, mod.Version) > 0
		}
		out = append(out, u)
	}
	return out, nil
}

// moduleManifest fetches a module's manifest and checks it describes a module.
func (m *Manager) moduleManifest(ctx context.Context, mod *core.Module) (*Package, error) {
	pkg, err := FetchPackage(ctx, m.fetcher, mod.Package, m.cfg.Limits)
	if err != nil {
		return nil, err
	}
	if pkg.Type != KindModule {
		return nil, core.Invalidf("the manifest of module '%s' describes a %s, not a module", mod.Name, pkg.Type)
	}
	return pkg, nil
}

// UpdateModule installs the newer version a module's manifest offers,
// keeping the module's id: its old rows and files are replaced in one go.
func (m *Manager) UpdateModule(ctx context.Context, id string, progress download.Progress) (Result, error) {
	mod, err := m.cfg.Service.Module(ctx, id)
	if err != nil {
		return Result{}, err
	}
	if mod.Package == "" {
		return Result{}, core.Invalidf("module '%s' was not installed from a package manifest, so it has no updates", mod.Name)
	}
	pkg, err := m.moduleManifest(ctx, mod)
	if err != nil {
		return Result{}, err
	}
	if !pkg.Compatible(m.cfg.AppVersion) {
		return Result{}, core.Conflictf("%s %s is not compatible with this application version (%s)", pkg.Name, pkg.Version, m.cfg.AppVersion)
	}
	if CompareVersions(pkg.Version, mod.Version) <= 0 {
		return Result{}, core.Conflictf("module '%s' is up to date: version %s is installed, the manifest offers %s", mod.Name, mod.Version, pkg.Version)
	}
	path, got, cleanup, err := m.download(ctx, pkg.Download, progress)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()
	if err := download.CheckSHA256(pkg.SHA256, got.SHA256); err != nil {
		return Result{}, err
	}
	return m.in.InstallFile(ctx, path, got.Name, InstallOptions{Package: mod.Package, Expect: KindModule, Replace: mod.ID, Name: got.Name})
}
