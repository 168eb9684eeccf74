package content

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/core"
)

// Site is where an install or an export happens: the service that changes
// content (never the store directly), the data folder that holds the
// owners' files, the loaded system, the limits and the clock. The
// installer in package imports holds one and hands it to the readers of
// each format (this package's, legacy's) and to the export, so that they
// need nothing of the installer above them.
type Site struct {
	Service     *engine.Service
	DataDir     string
	Collections Collections
	Limits      Limits
	Now         func() time.Time
}

// NewStage makes an empty staging folder under the data folder (same file
// system, so that moving it into place is a rename).
func (s *Site) NewStage() (string, error) {
	root := filepath.Join(s.DataDir, ".staging")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", core.Internal(err)
	}
	dir, err := os.MkdirTemp(root, "import-")
	if err != nil {
		return "", core.Internal(err)
	}
	return dir, nil
}

// OwnerFolder is where a module's or campaign's files live, and their URL
// path.
func (s *Site) OwnerFolder(kind, id string) (dir, urlPath string) {
	folder := "campaigns"
	if kind == KindModule {
		folder = "modules"
	}
	return filepath.Join(s.DataDir, folder, id), "/" + folder + "/" + id
}

// Destination resolves where a loose collection or a map is filed: a
// module or campaign id, or the loaded system's primary campaign.
func (s *Site) Destination(ctx context.Context, id string) (Result, error) {
	svc, system := s.Service, s.Collections.SystemID()
	if id == "" {
		c, err := svc.PrimaryCampaignOf(ctx, system)
		if core.IsNotFound(err) {
			return Result{}, core.NotFoundf("no primary campaign for system '%s' to import into; choose a destination", system)
		}
		if err != nil {
			return Result{}, err
		}
		return Result{Kind: KindCampaign, ID: c.ID, Name: c.Name}, nil
	}
	if m, err := svc.Module(ctx, id); err == nil {
		return Result{Kind: KindModule, ID: m.ID, Name: m.Name}, nil
	} else if !core.IsNotFound(err) {
		return Result{}, err
	}
	if c, err := svc.Campaign(ctx, id); err == nil {
		return Result{Kind: KindCampaign, ID: c.ID, Name: c.Name}, nil
	} else if !core.IsNotFound(err) {
		return Result{}, err
	}
	return Result{}, core.NotFoundf("no module or campaign with id '%s' to import into", id)
}

// Step is a prepared install: the rows to write in one transaction, where
// its folder goes, and how to take the rows back if the folder cannot be
// moved into place. Each format's reader makes one; the installer commits
// it.
type Step struct {
	Result Result
	Target string
	Write  func(tx core.Tx) error
	Undo   func(tx core.Tx) error
	// Abandon, when set, forgets what the step wrote ahead of its
	// transaction (a compendium's staged entities) when it never commits.
	Abandon func()
}

// ReloadData tells clients that content changed wholesale.
func ReloadData(r Result) core.Object {
	return core.Object{"reason": "import", "kind": r.Kind, "id": r.ID}
}

// PutModule writes a new module, or replaces the installed one (an
// update).
func PutModule(tx core.Tx, m *core.Module, replace string) error {
	old, err := tx.Module(m.ID)
	switch {
	case err != nil && !core.IsNotFound(err):
		return err
	case replace != "" && err != nil:
		return core.NotFoundf("no module with id '%s' to update", m.ID)
	case replace == "" && err == nil:
		return core.Conflictf("module '%s' (id '%s', version %s) is already installed; update or delete it first", old.Name, old.ID, old.Version)
	}
	if replace != "" {
		if err := tx.DeleteModule(m.ID); err != nil {
			return err
		}
	}
	return tx.PutModule(m)
}

// PutCampaign writes a new campaign, refusing one already installed. It
// becomes the primary campaign of its system when asked to or when the
// system has none.
func PutCampaign(tx core.Tx, c *core.Campaign, primary bool) error {
	if old, err := tx.Campaign(c.ID); err == nil {
		return core.Conflictf("campaign '%s' (id '%s') is already installed", old.Name, old.ID)
	} else if !core.IsNotFound(err) {
		return err
	}
	if _, err := tx.PrimaryCampaign(c.System); core.IsNotFound(err) || primary {
		c.Primary = true
	} else if err != nil {
		return err
	}
	return tx.PutCampaign(c)
}
