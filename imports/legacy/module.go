package legacy

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/legacyxml"
)

// Legacy modules, campaigns and asset packs (module.xml, campaign.xml,
// pack.xml inside .module, .campaign and .pack zips) install into the
// library: pages, maps, encounters, groups and assets owned by a new
// module or campaign, the compendium entries they embed mapped by the
// system's import hook, the archive's files in the owner's folder. All of
// it in one transaction, as any archive.

// What an archive of a legacy format is, as the installer's dispatch
// tells them apart from their root file (KindCompendium beside them).
const (
	KindModule   = "legacy module"
	KindCampaign = "legacy campaign"
	KindPack     = "legacy pack"
)

// Step prepares a legacy archive staged at dir whose root file is
// xmlFile. The root file and the maps' canvas files are removed from the
// folder once read: they hold the pages' text and the game master's
// drawings, which the database now holds.
func Step(ctx context.Context, in *content.Site, fsys fs.FS, dir, kind, xmlFile string, opt content.InstallOptions) (*content.Step, error) {
	f, err := os.Open(filepath.Join(dir, xmlFile))
	if err != nil {
		return nil, core.Internal(err)
	}
	defer f.Close()
	var step *content.Step
	var read []string // files read, removed from the folder
	switch kind {
	case KindModule:
		mod, err := legacyxml.ReadModule(f, xmlFile, in.Limits.XML)
		if err != nil {
			return nil, xmlError(err)
		}
		m := legacyModuleOf(mod.Header, first(mod.Category, "adventure"))
		step, err = legacyModuleStep(ctx, in, fsys, xmlFile, m, &mod.Content, nil, opt)
		if err != nil {
			return nil, err
		}
		read = canvasFiles(mod.Maps)
	case KindCampaign:
		camp, err := legacyxml.ReadCampaign(f, xmlFile, in.Limits.XML)
		if err != nil {
			return nil, xmlError(err)
		}
		if step, err = legacyCampaignStep(ctx, in, fsys, xmlFile, camp, opt); err != nil {
			return nil, err
		}
		read = canvasFiles(camp.Maps)
	case KindPack:
		pack, err := legacyxml.ReadPack(f, xmlFile, in.Limits.XML)
		if err != nil {
			return nil, xmlError(err)
		}
		m := legacyModuleOf(pack.Header, "pack")
		if step, err = legacyModuleStep(ctx, in, fsys, xmlFile, m, nil, pack, opt); err != nil {
			return nil, err
		}
	}
	f.Close()
	for _, name := range append(read, xmlFile) {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil && !os.IsNotExist(err) {
			return nil, core.Internal(err)
		}
	}
	return step, nil
}

// legacyOwnerID is the legacy id when it can name a folder, else a new one.
func legacyOwnerID(id string) string {
	if content.CheckFolderID("", id) == nil {
		return id
	}
	return core.NewID()
}

// legacyModuleStep installs a legacy module (content) or pack as a module.
func legacyModuleStep(ctx context.Context, in *content.Site, fsys fs.FS, xmlFile string, m *core.Module, body *legacyxml.Content, pack *legacyxml.Pack, opt content.InstallOptions) (*content.Step, error) {
	m.ID = legacyOwnerID(m.ID)
	m.ID = opt.ModuleID(m.ID)
	if strings.TrimSpace(m.Name) == "" {
		m.Name = compendiumName(opt.Name)
	}
	m.Slug = legacySlug(m.Slug, m.Name)
	m.System = in.Collections.SystemID()
	m.Package = opt.Package
	if err := m.Normalize(); err != nil {
		return nil, err
	}
	if err := content.CheckFolderID("module", m.ID); err != nil {
		return nil, err
	}
	dir, prefix := in.OwnerFolder(content.KindModule, m.ID)
	a := &legacyAdventure{in: in, fsys: fsys, xmlFile: xmlFile, owner: m.ID, name: opt.Name, progress: opt.Progress,
		files: &legacyFiles{fsys: fsys, prefix: prefix, limits: in.Limits.XML}}
	m.Image = a.relativeFile(m.Image)
	var err error
	if pack != nil {
		err = a.pack(pack)
	} else {
		err = a.content(ctx, body)
	}
	if err != nil {
		return nil, err
	}
	res := content.Result{Kind: content.KindModule, ID: m.ID, Name: m.Name, Library: a.report()}
	m.Descr = first(m.Descr, fmt.Sprintf("Imported from %s.", filepath.Base(first(opt.Name, xmlFile))))
	return &content.Step{
		Result: res,
		Target: dir,
		Write: func(tx core.Tx) error {
			if err := content.PutModule(tx, m, opt.Replace); err != nil {
				return err
			}
			return a.out.Put(tx)
		},
		Undo: func(tx core.Tx) error {
			if opt.Replace != "" {
				return nil
			}
			return tx.DeleteModule(m.ID)
		},
	}, nil
}

// legacyCampaignStep installs a legacy campaign: its content, and its
// references to modules and player characters as the campaign's
// references.
func legacyCampaignStep(ctx context.Context, in *content.Site, fsys fs.FS, xmlFile string, lc *legacyxml.Campaign, opt content.InstallOptions) (*content.Step, error) {
	c := &core.Campaign{ID: legacyOwnerID(lc.ID), Name: lc.Name, Descr: lc.Description, System: in.Collections.SystemID()}
	if strings.TrimSpace(c.Name) == "" {
		c.Name = compendiumName(opt.Name)
	}
	c.Slug = legacySlug(lc.Slug, c.Name)
	for _, ref := range append(append([]legacyxml.Reference(nil), lc.Modules...), lc.Players...) {
		if ref.Ref != "" {
			c.References = append(c.References, ref.Ref)
		}
	}
	if err := c.Normalize(); err != nil {
		return nil, err
	}
	dir, prefix := in.OwnerFolder(content.KindCampaign, c.ID)
	a := &legacyAdventure{in: in, fsys: fsys, xmlFile: xmlFile, owner: c.ID, name: opt.Name, progress: opt.Progress,
		files: &legacyFiles{fsys: fsys, prefix: prefix, limits: in.Limits.XML}}
	c.Image = a.relativeFile(lc.Image)
	if err := a.content(ctx, &lc.Content); err != nil {
		return nil, err
	}
	return &content.Step{
		Result: content.Result{Kind: content.KindCampaign, ID: c.ID, Name: c.Name, Library: a.report()},
		Target: dir,
		Write: func(tx core.Tx) error {
			if err := content.PutCampaign(tx, c, opt.Primary); err != nil {
				return err
			}
			return a.out.Put(tx)
		},
		Undo: func(tx core.Tx) error { return tx.DeleteCampaign(c.ID) },
	}, nil
}

// legacyAdventure turns a legacy module's or campaign's content into the
// rows of its owner.
type legacyAdventure struct {
	in       *content.Site
	fsys     fs.FS
	xmlFile  string
	owner    string
	name     string
	progress func(content.InstallProgress)
	files    *legacyFiles
	out      content.Owned
	notes    []string
}

// relativeFile keeps a cover image as a path relative to the owner's
// folder (as module.json's image) when the archive has it.
func (a *legacyAdventure) relativeFile(ref string) string {
	if u := a.files.file(ref); strings.HasPrefix(u, a.files.prefix+"/") {
		return strings.TrimPrefix(u, a.files.prefix+"/")
	}
	return ""
}

func (a *legacyAdventure) report() *content.LibraryReport {
	r := &content.LibraryReport{Pages: len(a.out.Library.Pages), Maps: len(a.out.Maps), Encounters: len(a.out.Library.Encounters),
		Groups: len(a.out.Library.Groups), Assets: len(a.out.Library.Assets), Entities: len(a.out.Entities), Notes: a.notes}
	if n := len(a.files.missing); n > 0 {
		// The first few, so that a person can tell which are missing.
		var names []string
		for _, m := range a.files.missing[:min(n, 3)] {
			names = append(names, clipRef(m))
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%d file %s the archive does not hold and %s left out (first: %s)",
			n, plural(n, "reference names a file", "references name files"), plural(n, "was", "were"), strings.Join(names, ", ")))
	}
	return r
}

// content reads a module's or campaign's content.
func (a *legacyAdventure) content(ctx context.Context, c *legacyxml.Content) error {
	a.out.Owner = a.owner
	if err := a.entries(ctx, c.Entries); err != nil {
		return err
	}
	entityFor := a.entityLinker(ctx)
	for i, g := range c.Groups {
		grp := &core.Group{ID: g.ID, Name: first(strings.TrimSpace(g.Name), "Group"), ParentID: g.Parent, Rank: sortRank(g.Sort, i), Owner: a.owner}
		grp.Slug = legacySlug(g.Slug, grp.Name)
		if err := grp.Normalize(); err != nil {
			return core.Invalidf("%s: group '%s': %s", a.xmlFile, grp.Name, core.MessageOf(err))
		}
		a.out.Library.Groups = append(a.out.Library.Groups, grp)
	}
	for i, lp := range c.Pages {
		p := &core.Page{ID: lp.ID, Name: first(strings.TrimSpace(lp.Name), "Page"), ParentID: lp.Parent, Rank: sortRank(lp.Sort, i),
			Format: core.PageHTML, Content: lp.Content, Owner: a.owner}
		p.Slug = legacySlug(lp.Slug, p.Name)
		if err := p.Normalize(); err != nil {
			return core.Invalidf("%s: page '%s': %s", a.xmlFile, p.Name, core.MessageOf(err))
		}
		html, err := content.ResolvePageHTML(p.Content, func(ref string) (string, error) { return a.files.file(ref), nil })
		if err != nil {
			return err
		}
		p.Content = html
		a.out.Library.Pages = append(a.out.Library.Pages, p)
	}
	mapsByGroup := map[string][]string{}
	for i, lm := range c.Maps {
		m, notes, err := a.files.legacyMap(lm, a.owner, i, entityFor)
		if err != nil {
			return core.Invalidf("%s: map '%s': %s", a.xmlFile, lm.Name, core.MessageOf(err))
		}
		a.notes = append(a.notes, notes...)
		a.out.Maps = append(a.out.Maps, m)
		mapsByGroup[m.ParentID] = append(mapsByGroup[m.ParentID], m.ID)
	}
	for i, le := range c.Encounters {
		e := &core.Encounter{ID: le.ID, Name: first(strings.TrimSpace(le.Name), "Encounter"), Descr: le.Description, ParentID: le.Parent,
			Rank: sortRank(le.Sort, i), Owner: a.owner, Combatants: []core.EncounterCreature{}}
		e.Slug = legacySlug(le.Slug, e.Name)
		// The map it is played on: the one map of its group, if there is one.
		if maps := mapsByGroup[e.ParentID]; len(maps) == 1 {
			e.MapID = maps[0]
		}
		for _, lc := range le.Combatants {
			cr := core.EncounterCreature{Name: lc.Name, Label: lc.Label}
			if _, _, ok := core.SplitReference(lc.Monster.Ref); ok {
				cr.Reference = lc.Monster.Ref
			}
			switch role := strings.ToLower(strings.TrimSpace(lc.Role)); role {
			case core.RoleHostile, core.RoleFriendly, core.RoleNeutral:
				cr.Role = role
			case "ally", "party", "player":
				cr.Role = core.RoleFriendly
			}
			if lc.X != 0 || lc.Y != 0 {
				x, y := lc.X, lc.Y
				cr.X, cr.Y = &x, &y
			}
			if cr.Reference == "" && strings.TrimSpace(cr.Name) == "" {
				cr.Name = first(lc.Label, "Creature")
			}
			e.Combatants = append(e.Combatants, cr)
		}
		if err := e.Normalize(); err != nil {
			return core.Invalidf("%s: %s", a.xmlFile, core.MessageOf(err))
		}
		a.out.Library.Encounters = append(a.out.Library.Encounters, e)
	}
	if len(c.Other) > 0 {
		a.notes = append(a.notes, fmt.Sprintf("%d %s Companion does not read %s left out: %s", len(c.Other),
			plural(len(c.Other), "element", "elements"), plural(len(c.Other), "was", "were"), elementNames(c.Other)))
	}
	return a.checkIDs()
}

// pack reads an asset pack: its groups and assets.
func (a *legacyAdventure) pack(p *legacyxml.Pack) error {
	a.out.Owner = a.owner
	for i, g := range p.Groups {
		grp := &core.Group{ID: g.ID, Name: first(strings.TrimSpace(g.Name), "Group"), ParentID: g.Parent, Rank: sortRank(g.Sort, i), Owner: a.owner}
		grp.Slug = legacySlug(g.Slug, grp.Name)
		if err := grp.Normalize(); err != nil {
			return core.Invalidf("%s: group '%s': %s", a.xmlFile, grp.Name, core.MessageOf(err))
		}
		a.out.Library.Groups = append(a.out.Library.Groups, grp)
	}
	for i, la := range p.Assets {
		as := &core.Asset{ID: la.ID, Name: first(strings.TrimSpace(la.Name), "Asset"), Type: first(la.Type, "image"),
			Resource: a.files.file(la.Resource), Tags: splitTags(la.Tags), Parameters: assetParameters(la), ParentID: la.Parent,
			Rank: sortRank(la.Sort, i), Owner: a.owner}
		as.Slug = legacySlug(la.Slug, as.Name)
		if as.Resource == "" {
			continue // noted by file: an asset without its image places nothing
		}
		if err := as.Normalize(); err != nil {
			return core.Invalidf("%s: asset '%s': %s", a.xmlFile, as.Name, core.MessageOf(err))
		}
		a.out.Library.Assets = append(a.out.Library.Assets, as)
	}
	if len(a.out.Library.Assets) == 0 {
		return core.Invalidf("nothing to import: %s names no asset whose file the archive holds", a.xmlFile)
	}
	if len(p.Other) > 0 {
		a.notes = append(a.notes, fmt.Sprintf("%d %s Companion does not read %s left out: %s", len(p.Other),
			plural(len(p.Other), "element", "elements"), plural(len(p.Other), "was", "were"), elementNames(p.Other)))
	}
	return a.checkIDs()
}

// checkIDs refuses two rows of one kind with the same id (a document that
// repeats one), which would otherwise overwrite each other silently.
func (a *legacyAdventure) checkIDs() error {
	seen := map[string]string{}
	check := func(kind, id, name string) error {
		key := kind + "\x00" + id
		if prev, dup := seen[key]; dup {
			return core.Invalidf("%s: %s id '%s' is used by '%s' and '%s'", a.xmlFile, kind, id, prev, name)
		}
		seen[key] = name
		return nil
	}
	for _, g := range a.out.Library.Groups {
		if err := check("group", g.ID, g.Name); err != nil {
			return err
		}
	}
	for _, p := range a.out.Library.Pages {
		if err := check("page", p.ID, p.Name); err != nil {
			return err
		}
	}
	for _, m := range a.out.Maps {
		if err := check("map", m.ID, m.Name); err != nil {
			return err
		}
		for _, t := range m.Tokens {
			if err := check("token", t.ID, t.Name); err != nil {
				return err
			}
		}
	}
	for _, e := range a.out.Library.Encounters {
		if err := check("encounter", e.ID, e.Name); err != nil {
			return err
		}
	}
	for _, as := range a.out.Library.Assets {
		if err := check("asset", as.ID, as.Name); err != nil {
			return err
		}
	}
	return nil
}

// entries maps the compendium entries the module embeds through the
// system's import hook, as a compendium's: entities owned by the module,
// their images from the archive. Without a hook they are left out, said in
// the notes.
func (a *legacyAdventure) entries(ctx context.Context, entries []legacyxml.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	cs, ok := a.in.Collections.(CompendiumSystem)
	var mapper CompendiumMapper
	if ok {
		mapper = cs.Compendium()
	}
	if mapper == nil || len(mapper.ImportKinds()) == 0 {
		a.notes = append(a.notes, fmt.Sprintf("%d compendium %s not imported: the loaded system ('%s') has no import hook",
			len(entries), plural(len(entries), "entry was", "entries were"), a.in.Collections.SystemID()))
		return nil
	}
	r := compendiumReader{in: a.in, src: Source{File: a.xmlFile, Name: a.name, Media: a.fsys, entries: entries},
		mapper: mapper, owner: a.owner, prefix: a.files.prefix, progress: content.NewThrottle(a.progress), now: a.in.Now().UTC()}
	got, err := r.read(ctx)
	if err != nil {
		return err
	}
	a.out.Entities = got.Entities
	a.notes = append(a.notes, r.notes()...)
	return nil
}

// entityLinker links a token's reference to an entity: one the module
// brings first, then one installed.
func (a *legacyAdventure) entityLinker(ctx context.Context) func(ref string) *string {
	own := map[string]string{}
	for _, e := range a.out.Entities {
		own[e.Kind+"/"+e.Slug] = e.ID
	}
	return func(ref string) *string {
		kind, slug, ok := core.SplitReference(ref)
		if !ok {
			return nil
		}
		if id, found := own[kind+"/"+slug]; found {
			return &id
		}
		if e, err := a.in.Service.EntityByReference(ctx, kind, slug); err == nil {
			id := e.ID
			return &id
		}
		return nil
	}
}

// elementNames lists the names of elements, each once, sorted.
func elementNames(list []*legacyxml.Element) string {
	seen := map[string]bool{}
	var names []string
	for _, el := range list {
		if !seen[el.Name] {
			seen[el.Name] = true
			names = append(names, "<"+el.Name+">")
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// legacyModuleOf is the module a legacy module.xml or pack.xml installs as.
func legacyModuleOf(h legacyxml.Header, category string) *core.Module {
	return &core.Module{ID: h.ID, Name: h.Name, Slug: h.Slug, Descr: h.Description, Author: h.Author,
		Acronym: h.Code, Category: category, Image: h.Image}
}
