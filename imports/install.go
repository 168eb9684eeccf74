package imports

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vttapp/companion/core/engine"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/export"
	"github.com/vttapp/companion/imports/legacy"
)

// Installer writes content into the store and the data folder: it stages
// a folder, has the reader of its format (content's, legacy's) prepare a
// step, commits the step's rows and moves the folder into place.
type Installer struct {
	site content.Site
}

// SetLimits replaces the archive and download limits (zero fields keep
// their defaults).
func (in *Installer) SetLimits(l Limits) { in.site.Limits = l.WithDefaults() }

// NewInstaller returns an installer over svc that files content under dataDir.
func NewInstaller(svc *engine.Service, dataDir string, cols Collections) *Installer {
	return &Installer{site: content.Site{Service: svc, DataDir: dataDir, Collections: cols, Limits: DefaultLimits, Now: time.Now}}
}

// InstallFS installs a content folder (module, campaign, system or loose
// collection) given as a file system, e.g. a system's sample folder.
func (in *Installer) InstallFS(ctx context.Context, src fs.FS, opt InstallOptions) (Result, error) {
	dir, err := in.site.NewStage()
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
	case legacy.KindCompendium, legacy.KindModule, legacy.KindPack:
		produces = KindModule // a compendium, legacy module or pack installs as a module
	case legacy.KindCampaign:
		produces = KindCampaign
	}
	if opt.Expect != "" && produces != opt.Expect {
		return Result{}, core.Invalidf("the package says it is a %s, but the archive holds a %s", opt.Expect, kind)
	}
	if kind == legacy.KindCampaign && opt.Replace != "" {
		return Result{}, core.Invalidf("module '%s' cannot be updated with a campaign", opt.Replace)
	}
	var step *content.Step
	site := &in.site
	switch kind {
	case KindModule:
		step, err = content.ModuleStep(site, fsys, opt)
	case KindCampaign:
		step, err = content.CampaignStep(site, fsys, opt)
	case KindSystem:
		step, err = content.SystemStep(site, fsys)
	case legacy.KindCompendium:
		src := legacy.Source{File: xmlFile, Name: opt.Name, Media: fsys, Open: openFile(filepath.Join(dir, xmlFile))}
		if step, err = legacy.CompendiumStep(ctx, site, src, opt); err == nil {
			// Read; the database will hold what it holds.
			err = os.Remove(filepath.Join(dir, xmlFile))
		}
	case legacy.KindModule, legacy.KindCampaign, legacy.KindPack:
		step, err = legacy.Step(ctx, site, fsys, dir, kind, xmlFile, opt)
	default:
		step, err = content.CollectionStep(ctx, site, fsys, opt)
	}
	if err == nil && kind != KindSystem {
		// The step has read them; the database will hold what they hold.
		if err = removeDataFiles(dir); err != nil {
			err = core.Internal(err)
		}
	}
	if err != nil {
		if step != nil && step.Abandon != nil {
			step.Abandon()
		}
		return Result{}, err
	}
	handedOff = true
	return in.commitStaged(ctx, dir, step)
}

// commitStaged writes a prepared step's rows in one transaction, then
// moves the folder staged at dir into place (or takes the rows back if it
// cannot). dir is removed on any failure.
func (in *Installer) commitStaged(ctx context.Context, dir string, step *content.Step) (Result, error) {
	placed := false
	defer func() {
		if !placed {
			os.RemoveAll(dir)
		}
	}()
	if err := in.site.Service.ChangeContent(ctx, func(tx core.Tx) (core.Object, error) {
		if err := step.Write(tx); err != nil {
			return nil, err
		}
		return content.ReloadData(step.Result), nil
	}); err != nil {
		if step.Abandon != nil {
			step.Abandon()
		}
		return Result{}, err
	}
	if err := placeDir(dir, step.Target); err != nil {
		if step.Undo != nil {
			_ = in.site.Service.ChangeContent(context.WithoutCancel(ctx), func(tx core.Tx) (core.Object, error) {
				return nil, step.Undo(tx)
			})
		}
		return Result{}, core.Internal(err)
	}
	placed = true
	return step.Result, nil
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

// Export reads a module or campaign in one read transaction and stages
// its archive, in the format InstallFile reads back (package export).
func (in *Installer) Export(ctx context.Context, kind, id string) (*export.Archive, error) {
	return export.Stage(ctx, &in.site, kind, id)
}
