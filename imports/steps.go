package imports

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/vttapp/companion/core"
)

// moduleStep prepares a module: module.json checked against the schema,
// its collections and maps owned by it, its files in modules/<id>/.
func (in *Installer) moduleStep(fsys fs.FS, opt InstallOptions) (*installStep, error) {
	data, err := readObject(fsys, moduleFile)
	if err != nil {
		return nil, err
	}
	if err := ValidateModuleJSON(data); err != nil {
		return nil, err
	}
	m, err := core.DecodeModule(data)
	if err != nil {
		return nil, err
	}
	switch {
	case opt.Replace != "":
		m.ID = opt.Replace
	case opt.PackageID != "":
		m.ID = opt.PackageID
	}
	// Only content installed from a manifest has a package identity; a
	// package URL written in module.json of a bare archive is not trusted
	// for updates (shapes.md 17.8).
	m.Package = opt.Package
	if err := checkFolderID("module", m.ID); err != nil {
		return nil, err
	}
	for _, ref := range []string{m.Image, m.Banner} {
		if ref == "" {
			continue
		}
		keep, err := checkExternalRef(ref)
		if err == nil && !keep {
			_, err = relativeRef(ref)
		}
		if err != nil {
			return nil, core.Invalidf("module.json: %s", core.MessageOf(err))
		}
	}
	system := m.System
	if system == "" {
		system = in.cols.SystemID()
	}
	dir, prefix := in.ownerFolder(KindModule, m.ID)
	content, err := contentReader{fsys: fsys, cols: in.cols, owner: m.ID, system: system, prefix: prefix, now: in.now().UTC()}.read()
	if err != nil {
		return nil, err
	}
	if len(content.entities) > 0 && m.System != "" && m.System != in.cols.SystemID() {
		return nil, core.Invalidf("module '%s' is made for system '%s', but the loaded system is '%s'", m.Name, m.System, in.cols.SystemID())
	}
	return &installStep{
		result: Result{Kind: KindModule, ID: m.ID, Name: m.Name},
		target: dir,
		write: func(tx core.Tx) error {
			old, err := tx.Module(m.ID)
			switch {
			case err != nil && !core.IsNotFound(err):
				return err
			case opt.Replace != "" && err != nil:
				return core.NotFoundf("no module with id '%s' to update", m.ID)
			case opt.Replace == "" && err == nil:
				return core.Conflictf("module '%s' (id '%s', version %s) is already installed; update or delete it first", old.Name, old.ID, old.Version)
			}
			if opt.Replace != "" {
				if err := tx.DeleteModule(m.ID); err != nil {
					return err
				}
			}
			if err := tx.PutModule(m); err != nil {
				return err
			}
			return content.put(tx)
		},
		undo: func(tx core.Tx) error {
			if opt.Replace != "" {
				return nil // the old rows are gone; keep the new ones with the old files
			}
			return tx.DeleteModule(m.ID)
		},
	}, nil
}

// campaignStep prepares a campaign: campaign.json, its collections, maps,
// combatants, game, screen and messages, its files in campaigns/<id>/.
func (in *Installer) campaignStep(fsys fs.FS, opt InstallOptions) (*installStep, error) {
	data, err := readObject(fsys, campaignFile)
	if err != nil {
		return nil, err
	}
	var c core.Campaign
	if err := decodeStrict(campaignFile, data, &c); err != nil {
		return nil, err
	}
	if err := c.Normalize(); err != nil {
		return nil, err
	}
	if c.System == "" {
		c.System = in.cols.SystemID()
	}
	if err := checkFolderID("campaign", c.ID); err != nil {
		return nil, err
	}
	dir, prefix := in.ownerFolder(KindCampaign, c.ID)
	content, err := contentReader{fsys: fsys, cols: in.cols, owner: c.ID, system: c.System, prefix: prefix, now: in.now().UTC()}.read()
	if err != nil {
		return nil, err
	}
	play, err := in.readPlay(fsys, c.ID)
	if err != nil {
		return nil, err
	}
	return &installStep{
		result: Result{Kind: KindCampaign, ID: c.ID, Name: c.Name},
		target: dir,
		write: func(tx core.Tx) error {
			if old, err := tx.Campaign(c.ID); err == nil {
				return core.Conflictf("campaign '%s' (id '%s') is already installed", old.Name, old.ID)
			} else if !core.IsNotFound(err) {
				return err
			}
			if _, err := tx.PrimaryCampaign(c.System); core.IsNotFound(err) || opt.Primary {
				c.Primary = true
			} else if err != nil {
				return err
			}
			if err := tx.PutCampaign(&c); err != nil {
				return err
			}
			if err := content.put(tx); err != nil {
				return err
			}
			return play.put(tx, c.ID)
		},
		undo: func(tx core.Tx) error { return tx.DeleteCampaign(c.ID) },
	}, nil
}

// play is a campaign's table state: combatants, game, screen, messages.
type play struct {
	combatants []*core.Combatant
	game       *core.Game
	screen     *core.Screen
	messages   []*core.Message
}

func (in *Installer) readPlay(fsys fs.FS, campaignID string) (*play, error) {
	p := &play{}
	items, err := readArray(fsys, "combatants.json")
	if err != nil {
		return nil, err
	}
	for i, item := range items {
		var c core.Combatant
		if err := decodeLoose("combatants.json item "+itoa(i+1), item, &c); err != nil {
			return nil, err
		}
		c.Campaign = campaignID
		c.Rank = i
		c.Normalize()
		p.combatants = append(p.combatants, &c)
	}
	if _, err := fs.Stat(fsys, "game.json"); err == nil {
		data, err := readObject(fsys, "game.json")
		if err != nil {
			return nil, err
		}
		p.game = &core.Game{}
		if err := decodeLoose("game.json", data, p.game); err != nil {
			return nil, err
		}
		p.game.Combatants = nil
	}
	if _, err := fs.Stat(fsys, "screen.json"); err == nil {
		data, err := readObject(fsys, "screen.json")
		if err != nil {
			return nil, err
		}
		p.screen = &core.Screen{}
		if err := decodeLoose("screen.json", data, p.screen); err != nil {
			return nil, err
		}
	}
	items, err = readArray(fsys, "messages.json")
	if err != nil {
		return nil, err
	}
	now := in.now().UTC()
	for i, item := range items {
		var m core.Message
		if err := decodeLoose("messages.json item "+itoa(i+1), item, &m); err != nil {
			return nil, err
		}
		if strings.TrimSpace(m.Text) == "" {
			return nil, core.Invalidf("messages.json item %d: 'text' is required", i+1)
		}
		if m.ID == "" {
			m.ID = core.NewID()
		}
		if m.Type == "" {
			m.Type = core.MessageChat
		}
		if m.Created.IsZero() {
			m.Created = now
		}
		m.Campaign = campaignID
		p.messages = append(p.messages, &m)
	}
	return p, nil
}

func (p *play) put(tx core.Tx, campaignID string) error {
	for _, c := range p.combatants {
		if old, err := tx.Combatant(c.ID); err == nil && old.Campaign != campaignID {
			return core.Conflictf("combatant id '%s' already belongs to another campaign", c.ID)
		}
		if err := tx.PutCombatant(c); err != nil {
			return err
		}
	}
	if p.game != nil {
		if err := tx.PutGame(campaignID, p.game); err != nil {
			return err
		}
	}
	if p.screen != nil {
		if err := tx.PutScreen(campaignID, p.screen); err != nil {
			return err
		}
	}
	for _, m := range p.messages {
		if err := tx.AddMessage(m); err != nil {
			return err
		}
	}
	return nil
}

// systemManifest is the part of system.json an installer reads.
type systemManifest struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Version string `json:"version"`
}

// systemStep prepares a system: its folder lands in systems/<id>/ (never
// over an installed one); when it is the loaded system, its collection
// files are imported tagged with its id.
func (in *Installer) systemStep(fsys fs.FS) (*installStep, error) {
	data, err := readObject(fsys, systemFile)
	if err != nil {
		return nil, err
	}
	var s systemManifest
	if err := decodeLoose(systemFile, data, &s); err != nil {
		return nil, err
	}
	if strings.TrimSpace(s.Name) == "" {
		return nil, core.Invalidf("system.json: name is required")
	}
	if err := checkFolderID("system", s.ID); err != nil {
		return nil, core.Invalidf("system.json: %s", core.MessageOf(err))
	}
	if s.Version != "" && !core.IsSemver(s.Version) {
		return nil, core.Invalidf("system.json: version '%s' is not a semantic version MAJOR.MINOR.PATCH", s.Version)
	}
	target := filepath.Join(in.dataDir, "systems", s.ID)
	if _, err := fs.Stat(osFS(in.dataDir), "systems/"+s.ID); err == nil {
		return nil, core.Conflictf("system '%s' is already installed; installed systems are never overwritten", s.ID)
	}
	content := &owned{}
	if s.ID == in.cols.SystemID() {
		content, err = contentReader{fsys: fsys, cols: in.cols, owner: "", system: s.ID, prefix: "/systems/" + s.ID, now: in.now().UTC()}.read()
		if err != nil {
			return nil, err
		}
	}
	return &installStep{
		result: Result{Kind: KindSystem, ID: s.ID, Name: s.Name},
		target: target,
		write:  content.put,
	}, nil
}

// collectionStep prepares a loose collection: its entities and maps filed
// into the destination module or campaign, its files in a folder of their
// own inside the destination's folder.
func (in *Installer) collectionStep(ctx context.Context, fsys fs.FS, opt InstallOptions) (*installStep, error) {
	dest, err := in.destination(ctx, opt.Destination)
	if err != nil {
		return nil, err
	}
	importID := core.NewID()
	dir, prefix := in.ownerFolder(dest.Kind, dest.ID)
	content, err := contentReader{fsys: fsys, cols: in.cols, owner: dest.ID, system: in.cols.SystemID(), prefix: prefix + "/imports/" + importID, now: in.now().UTC()}.read()
	if err != nil {
		return nil, err
	}
	if content.empty() {
		return nil, core.Invalidf("nothing to import: the archive has no module.json, campaign.json or system.json at its root, no collection file of the loaded system ('%s') and no pages.json, encounters.json, groups.json or assets.json", in.cols.SystemID())
	}
	return &installStep{
		result: dest,
		target: filepath.Join(dir, "imports", importID),
		write: func(tx core.Tx) error {
			if err := dest.check(tx); err != nil {
				return err
			}
			return content.put(tx)
		},
	}, nil
}

// destination resolves where a loose collection or a map is filed: a
// module or campaign id, or the loaded system's primary campaign.
func (in *Installer) destination(ctx context.Context, id string) (Result, error) {
	if id == "" {
		c, err := in.svc.PrimaryCampaignOf(ctx, in.cols.SystemID())
		if core.IsNotFound(err) {
			return Result{}, core.NotFoundf("no primary campaign for system '%s' to import into; choose a destination", in.cols.SystemID())
		}
		if err != nil {
			return Result{}, err
		}
		return Result{Kind: KindCampaign, ID: c.ID, Name: c.Name}, nil
	}
	if m, err := in.svc.Module(ctx, id); err == nil {
		return Result{Kind: KindModule, ID: m.ID, Name: m.Name}, nil
	} else if !core.IsNotFound(err) {
		return Result{}, err
	}
	if c, err := in.svc.Campaign(ctx, id); err == nil {
		return Result{Kind: KindCampaign, ID: c.ID, Name: c.Name}, nil
	} else if !core.IsNotFound(err) {
		return Result{}, err
	}
	return Result{}, core.NotFoundf("no module or campaign with id '%s' to import into", id)
}

// check verifies inside the transaction that the destination still exists.
func (r Result) check(tx core.Tx) error {
	var err error
	if r.Kind == KindModule {
		_, err = tx.Module(r.ID)
	} else {
		_, err = tx.Campaign(r.ID)
	}
	if core.IsNotFound(err) {
		return core.NotFoundf("the destination %s '%s' was deleted meanwhile", r.Kind, r.Name)
	}
	return err
}
