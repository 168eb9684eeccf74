package imports

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
)

// What an import produced.
const (
	KindModule     = "module"
	KindCampaign   = "campaign"
	KindSystem     = "system"
	KindCollection = "collection"
	KindMap        = "map"
)

// Result names what an import installed: the body of POST /host/api/import.
type Result struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name"`
	// Compendium tells what a compendium import made (nil for others).
	Compendium *CompendiumReport `json:"compendium,omitempty"`
	// Library tells what a legacy module, campaign or pack made (nil for
	// others).
	Library *LibraryReport `json:"library,omitempty"`
	// GridPending is true for a map made from an image or a video: its
	// grid is to be set before it can go on the player screen.
	GridPending bool `json:"gridPending,omitempty"`
}

// CompendiumReport is what a compendium import made: the entities
// written, the entries left out by element kind, and what the person
// should know (entries the system does not map, images the archive lacks).
type CompendiumReport struct {
	Entities int            `json:"entities"`
	Skipped  map[string]int `json:"skipped,omitempty"`
	Notes    []string       `json:"notes,omitempty"`
}

// InstallOptions say how to file a content folder or map.
type InstallOptions struct {
	// Destination is the module or campaign that receives a loose
	// collection or a map; empty means the loaded system's primary campaign.
	Destination string
	// Package is the manifest URL the content came from; a module keeps it
	// to check for updates. PackageID is the manifest's id, which becomes
	// the id of a newly installed module.
	Package   string
	PackageID string
	// Expect is the type a manifest announced ("module" or "system"); the
	// archive must be of that type. Empty accepts any.
	Expect string
	// Replace is the id of an installed module that this content updates;
	// the module keeps that id.
	Replace string
	// Primary makes an installed campaign the primary one of its system.
	Primary bool
	// Name is the original file name, used to name a map or a
	// compendium's module.
	Name string
	// Progress, when set, receives how far an install of many entries
	// (a compendium) has come, at most every 100 ms. It must not block.
	Progress func(InstallProgress)
}

// Installer writes content into the store and the data folder.
type Installer struct {
	svc     *core.Service
	dataDir string
	cols    Collections
	limits  Limits
	now     func() time.Time
}

// SetLimits replaces the archive and download limits (zero fields keep
// their defaults).
func (in *Installer) SetLimits(l Limits) { in.limits = l.withDefaults() }

// NewInstaller returns an installer over svc that files content under dataDir.
func NewInstaller(svc *core.Service, dataDir string, cols Collections) *Installer {
	return &Installer{svc: svc, dataDir: dataDir, cols: cols, limits: DefaultLimits, now: time.Now}
}

// newStage makes an empty staging folder under the data folder (same file
// system, so that moving it into place is a rename).
func (in *Installer) newStage() (string, error) {
	root := filepath.Join(in.dataDir, ".staging")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", core.Internal(err)
	}
	dir, err := os.MkdirTemp(root, "import-")
	if err != nil {
		return "", core.Internal(err)
	}
	return dir, nil
}

// InstallFS installs a content folder (module, campaign, system or loose
// collection) given as a file system, e.g. a system's sample folder.
func (in *Installer) InstallFS(ctx context.Context, src fs.FS, opt InstallOptions) (Result, error) {
	dir, err := in.newStage()
	if err != nil {
		return Result{}, err
	}
	if err := copyFS(src, dir); err != nil {
		os.RemoveAll(dir)
		return Result{}, core.Invalidf("content folder cannot be copied: %v", err)
	}
	return in.installStaged(ctx, dir, opt)
}

// installStaged installs the content folder staged at dir. The folder is
// moved into place after the commit, or removed on any failure.
func (in *Installer) installStaged(ctx context.Context, dir string, opt InstallOptions) (res Result, err error) {
	// Removed on any failure, a panic included (the manager recovers
	// panics of background installs): until commitStaged owns it.
	handedOff := false
	defer func() {
		if !handedOff {
			os.RemoveAll(dir)
		}
	}()
	fsys := os.DirFS(dir)
	kind, xmlFile, err := contentRoot(fsys)
	if err != nil {
		return Result{}, err
	}
	produces := kind
	switch kind {
	case KindCompendium, kindLegacyModule, kindLegacyPack:
		produces = KindModule // a compendium, legacy module or pack installs as a module
	case kindLegacyCampaign:
		produces = KindCampaign
	}
	if opt.Expect != "" && produces != opt.Expect {
		return Result{}, core.Invalidf("the package says it is a %s, but the archive holds a %s", opt.Expect, kind)
	}
	if kind == kindLegacyCampaign && opt.Replace != "" {
		return Result{}, core.Invalidf("module '%s' cannot be updated with a campaign", opt.Replace)
	}
	var step *installStep
	switch kind {
	case KindModule:
		step, err = in.moduleStep(fsys, opt)
	case KindCampaign:
		step, err = in.campaignStep(fsys, opt)
	case KindSystem:
		step, err = in.systemStep(fsys)
	case KindCompendium:
		src := compendiumSource{file: xmlFile, name: opt.Name, media: fsys, open: openFile(filepath.Join(dir, xmlFile))}
		if step, err = in.compendiumStep(ctx, src, opt); err == nil {
			// Read; the database will hold what it holds.
			err = os.Remove(filepath.Join(dir, xmlFile))
		}
	case kindLegacyModule, kindLegacyCampaign, kindLegacyPack:
		step, err = in.legacyStep(ctx, fsys, dir, kind, xmlFile, opt)
	default:
		step, err = in.collectionStep(ctx, fsys, opt)
	}
	if err == nil && kind != KindSystem {
		// The step has read them; the database will hold what they hold.
		if err = removeDataFiles(dir); err != nil {
			err = core.Internal(err)
		}
	}
	if err != nil {
		if step != nil && step.abandon != nil {
			step.abandon()
		}
		return Result{}, err
	}
	handedOff = true
	return in.commitStaged(ctx, dir, step)
}

// commitStaged writes a prepared step's rows in one transaction, then
// moves the folder staged at dir into place (or takes the rows back if it
// cannot). dir is removed on any failure.
func (in *Installer) commitStaged(ctx context.Context, dir string, step *installStep) (Result, error) {
	placed := false
	defer func() {
		if !placed {
			os.RemoveAll(dir)
		}
	}()
	if err := in.svc.ChangeContent(ctx, func(tx core.Tx) (core.Object, error) {
		if err := step.write(tx); err != nil {
			return nil, err
		}
		return reloadData(step.result), nil
	}); err != nil {
		if step.abandon != nil {
			step.abandon()
		}
		return Result{}, err
	}
	if err := placeDir(dir, step.target); err != nil {
		if step.undo != nil {
			_ = in.svc.ChangeContent(context.WithoutCancel(ctx), func(tx core.Tx) (core.Object, error) {
				return nil, step.undo(tx)
			})
		}
		return Result{}, core.Internal(err)
	}
	placed = true
	return step.result, nil
}

// removeDataFiles deletes the JSON files at the root of a staged module,
// campaign or collection folder once the database holds what they held
// (module.json, campaign.json, maps.json, combatants.json, game.json,
// screen.json, messages.json, collection files): kept, they would be a
// second copy of the game master's secrets (hidden tokens, the dm layer,
// notes, foes' numbers, private messages) beside the database, out of
// date after the first change. What stays is what content points at:
// images, maps, handouts. A system keeps its folder whole: the system
// loader reads it.
func removeDataFiles(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".json") {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// installStep is a prepared install: the rows to write in one transaction,
// where its folder goes, and how to take the rows back if the folder cannot
// be moved into place.
type installStep struct {
	result Result
	target string
	write  func(tx core.Tx) error
	undo   func(tx core.Tx) error
	// abandon, when set, forgets what the step wrote ahead of its
	// transaction (a compendium's staged entities) when it never commits.
	abandon func()
}

// reloadData tells clients that content changed wholesale.
func reloadData(r Result) core.Object {
	return core.Object{"reason": "import", "kind": r.Kind, "id": r.ID}
}

// placeDir moves a staged folder to target, replacing what was there.
func placeDir(staged, target string) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	var old string
	if _, err := os.Lstat(target); err == nil {
		old = target + ".old-" + filepath.Base(staged)
		if err := os.Rename(target, old); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(staged, target); err != nil {
		if old != "" {
			_ = os.Rename(old, target)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// ownerFolder is where a module's or campaign's files live, and their URL path.
func (in *Installer) ownerFolder(kind, id string) (dir, urlPath string) {
	folder := "campaigns"
	if kind == KindModule {
		folder = "modules"
	}
	return filepath.Join(in.dataDir, folder, id), "/" + folder + "/" + id
}
