package content

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vttapp/companion/core"
)

// ModuleStep prepares a module: module.json checked against the schema,
// its collections and maps owned by it, its files in modules/<id>/.
func ModuleStep(in *Site, fsys fs.FS, opt InstallOptions) (*Step, error) {
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
	m.ID = opt.ModuleID(m.ID)
	// Only content installed from a manifest has a package identity; a
	// package URL written in module.json of a bare archive is not trusted
	// for updates (shapes.md 17.8).
	m.Package = opt.Package
	if err := CheckFolderID("module", m.ID); err != nil {
		return nil, err
	}
	for _, ref := range []string{m.Image, m.Banner} {
		if ref == "" {
			continue
		}
		keep, err := CheckExternalRef(ref)
		if err == nil && !keep {
			_, err = RelativeRef(ref)
		}
		if err != nil {
			return nil, core.Invalidf("module.json: %s", core.MessageOf(err))
		}
	}
	system := m.System
	if system == "" {
		system = in.Collections.SystemID()
	}
	dir, prefix := in.OwnerFolder(KindModule, m.ID)
	rows, err := contentReader{fsys: fsys, cols: in.Collections, owner: m.ID, system: system, prefix: prefix, now: in.Now().UTC()}.read()
	if err != nil {
		return nil, err
	}
	if len(rows.Entities) > 0 && m.System != "" && m.System != in.Collections.SystemID() {
		return nil, core.Invalidf("module '%s' is made for system '%s', but the loaded system is '%s'", m.Name, m.System, in.Collections.SystemID())
	}
	return &Step{
		Result: Result{Kind: KindModule, ID: m.ID, Name: m.Name},
		Target: dir,
		Write: func(tx core.Tx) error {
			if err := PutModule(tx, m, opt.Replace); err != nil {
				return err
			}
			return rows.Put(tx)
		},
		Undo: func(tx core.Tx) error {
			if opt.Replace != "" {
				return nil // the old rows are gone; keep the new ones with the old files
			}
			return tx.DeleteModule(m.ID)
		},
	}, nil
}

// CampaignStep prepares a campaign: campaign.json, its collections, maps,
// combatants, game, screen and messages, its files in campaigns/<id>/.
func CampaignStep(in *Site, fsys fs.FS, opt InstallOptions) (*Step, error) {
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
		c.System = in.Collections.SystemID()
	}
	if err := CheckFolderID("campaign", c.ID); err != nil {
		return nil, err
	}
	dir, prefix := in.OwnerFolder(KindCampaign, c.ID)
	rows, err := contentReader{fsys: fsys, cols: in.Collections, owner: c.ID, system: c.System, prefix: prefix, now: in.Now().UTC()}.read()
	if err != nil {
		return nil, err
	}
	play, err := readPlay(in, fsys, c.ID)
	if err != nil {
		return nil, err
	}
	return &Step{
		Result: Result{Kind: KindCampaign, ID: c.ID, Name: c.Name},
		Target: dir,
		Write: func(tx core.Tx) error {
			if err := PutCampaign(tx, &c, opt.Primary); err != nil {
				return err
			}
			if err := rows.Put(tx); err != nil {
				return err
			}
			return play.put(tx, c.ID)
		},
		Undo: func(tx core.Tx) error { return tx.DeleteCampaign(c.ID) },
	}, nil
}

// play is a campaign's table state: combatants, game, screen, messages.
type play struct {
	combatants []*core.Combatant
	game       *core.Game
	screen     *core.Screen
	messages   []*core.Message
}

func readPlay(in *Site, fsys fs.FS, campaignID string) (*play, error) {
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
	now := in.Now().UTC()
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

// SystemVersion is the version an installed system's system.json states
// ("0.0.0" when it states none), or "" when the file cannot be read as
// one.
func SystemVersion(data []byte) string {
	var s systemManifest
	if decodeLoose(SystemFile, data, &s) != nil {
		return ""
	}
	if s.Version == "" {
		return "0.0.0"
	}
	return s.Version
}

// SystemStep prepares a system: its folder lands in systems/<id>/ (never
// over an installed one); when it is the loaded system, its collection
// files are imported tagged with its id.
func SystemStep(in *Site, fsys fs.FS) (*Step, error) {
	data, err := readObject(fsys, SystemFile)
	if err != nil {
		return nil, err
	}
	var s systemManifest
	if err := decodeLoose(SystemFile, data, &s); err != nil {
		return nil, err
	}
	if strings.TrimSpace(s.Name) == "" {
		return nil, core.Invalidf("system.json: name is required")
	}
	if err := CheckFolderID("system", s.ID); err != nil {
		return nil, core.Invalidf("system.json: %s", core.MessageOf(err))
	}
	if s.Version != "" && !core.IsSemver(s.Version) {
		return nil, core.Invalidf("system.json: version '%s' is not a semantic version MAJOR.MINOR.PATCH", s.Version)
	}
	target := filepath.Join(in.DataDir, "systems", s.ID)
	if _, err := fs.Stat(os.DirFS(in.DataDir), "systems/"+s.ID); err == nil {
		return nil, core.Conflictf("system '%s' is already installed; installed systems are never overwritten", s.ID)
	}
	rows := &Owned{}
	if s.ID == in.Collections.SystemID() {
		rows, err = contentReader{fsys: fsys, cols: in.Collections, owner: "", system: s.ID, prefix: "/systems/" + s.ID, now: in.Now().UTC()}.read()
		if err != nil {
			return nil, err
		}
	}
	return &Step{
		Result: Result{Kind: KindSystem, ID: s.ID, Name: s.Name},
		Target: target,
		Write:  rows.Put,
	}, nil
}

// CollectionStep prepares a loose collection: its entities and maps filed
// into the destination module or campaign, its files in a folder of their
// own inside the destination's folder.
func CollectionStep(ctx context.Context, in *Site, fsys fs.FS, opt InstallOptions) (*Step, error) {
	dest, err := in.Destination(ctx, opt.Destination)
	if err != nil {
		return nil, err
	}
	importID := core.NewID()
	dir, prefix := in.OwnerFolder(dest.Kind, dest.ID)
	rows, err := contentReader{fsys: fsys, cols: in.Collections, owner: dest.ID, system: in.Collections.SystemID(), prefix: prefix + "/imports/" + importID, now: in.Now().UTC()}.read()
	if err != nil {
		return nil, err
	}
	if rows.Empty() {
		return nil, core.Invalidf("nothing to import: the archive has no module.json, campaign.json or system.json at its root, no collection file of the loaded system ('%s') and no pages.json, encounters.json, groups.json or assets.json", in.Collections.SystemID())
	}
	return &Step{
		Result: dest,
		Target: filepath.Join(dir, "imports", importID),
		Write: func(tx core.Tx) error {
			if err := dest.Check(tx); err != nil {
				return err
			}
			return rows.Put(tx)
		},
	}, nil
}
