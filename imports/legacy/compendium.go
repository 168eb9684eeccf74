package legacy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/legacyxml"
)

// KindCompendium is what an archive holding compendium.xml (or a bare
// compendium XML file) is; it installs as a module (Result.Kind "module").
const KindCompendium = "compendium"

// CompendiumMapper is what the importer needs of the loaded game system to
// install a legacy compendium: its import hook (systems.System implements
// it).
type CompendiumMapper interface {
	// ImportKinds lists the element names the system maps.
	ImportKinds() []string
	// MapCompendium maps one element's table (legacyxml.Element.Table) to
	// entities; none when the system does not import it.
	MapCompendium(ctx context.Context, kind string, element map[string]any) ([]*core.Entity, error)
}

// CompendiumSystem is implemented by a content.Collections whose system
// can map compendiums. Compendium returns the mapper of the system loaded
// now; an install uses that one throughout, even if the system is
// reloaded meanwhile.
type CompendiumSystem interface {
	Compendium() CompendiumMapper
}

// Source is a compendium to install: its XML and its files.
type Source struct {
	File  string // the document's name in messages
	Open  func() (io.ReadCloser, int64, error)
	Media fs.FS  // the unpacked archive; nil for a bare XML file
	Name  string // the file name the user gave, which names the module
	// entries, when not nil, are the entries already read (those a legacy
	// module embeds), in place of Open's document.
	entries []legacyxml.Entry
}

// entryStream yields a compendium's entries one at a time (io.EOF after
// the last), with how far it has come for progress.
type entryStream interface {
	Next() (legacyxml.Entry, error)
	Offset() int64
	Entries() int
}

// entrySlice is an entryStream over entries already read; its offset
// counts entries.
type entrySlice struct {
	list []legacyxml.Entry
	i    int
}

func (s *entrySlice) Next() (legacyxml.Entry, error) {
	if s.i >= len(s.list) {
		return legacyxml.Entry{}, io.EOF
	}
	s.i++
	return s.list[s.i-1], nil
}

func (s *entrySlice) Offset() int64 { return int64(s.i) }
func (s *entrySlice) Entries() int  { return s.i }

// legacyFolders are where the original application's compendium archives
// keep the images of each kind of entry.
var legacyFolders = map[string]string{
	legacyxml.KindMonster: "monsters", legacyxml.KindPlayer: "players",
	legacyxml.KindItem: "items", legacyxml.KindSpell: "spells",
}

// CompendiumStep prepares a compendium: every entry mapped by the
// system's import hook, the entities owned by a new module (or filed into
// the destination), the archive's files in the module's folder.
func CompendiumStep(ctx context.Context, in *content.Site, src Source, opt content.InstallOptions) (*content.Step, error) {
	cs, ok := in.Collections.(CompendiumSystem)
	if !ok {
		return nil, core.Invalidf("the loaded system ('%s') cannot import compendiums", in.Collections.SystemID())
	}
	mapper := cs.Compendium()
	if len(mapper.ImportKinds()) == 0 {
		return nil, core.Invalidf("the loaded system ('%s') declares no import hook for compendium XML (companion.import.compendium)", in.Collections.SystemID())
	}

	// Where it goes: a new module, or the destination the person chose.
	var dest content.Result
	var module *core.Module
	var dir, prefix string
	if opt.Destination != "" && opt.Replace == "" && opt.PackageID == "" {
		d, err := in.Destination(ctx, opt.Destination)
		if err != nil {
			return nil, err
		}
		dest = d
		importID := core.NewID()
		destDir, destPrefix := in.OwnerFolder(dest.Kind, dest.ID)
		dir, prefix = filepath.Join(destDir, "imports", importID), destPrefix+"/imports/"+importID
	} else {
		module = &core.Module{Name: compendiumName(src.Name), Category: "compendium", System: in.Collections.SystemID()}
		module.ID = opt.ModuleID(module.ID)
		module.Package = opt.Package
		if err := module.Normalize(); err != nil {
			return nil, err
		}
		if err := content.CheckFolderID("module", module.ID); err != nil {
			return nil, err
		}
		dest = content.Result{Kind: content.KindModule, ID: module.ID, Name: module.Name}
		dir, prefix = in.OwnerFolder(content.KindModule, module.ID)
	}

	r := compendiumReader{in: in, src: src, mapper: mapper, owner: dest.ID, prefix: prefix,
		progress: content.NewThrottle(opt.Progress), now: in.Now().UTC()}
	if src.entries == nil {
		// A file of any size: its entities are written in batches as
		// they are made, where nothing reads them, and adopted all at
		// once when the install commits (engine.Service.StageEntities).
		r.stage, r.keepIDs = "import-"+core.NewID(), module == nil
	}
	rows, err := r.read(ctx)
	abandon := func() {
		if r.stage != "" {
			// Should this fail, the rows are dropped at the next start
			// (NewManager); nothing reads them meanwhile.
			_ = in.Service.DropStaged(context.WithoutCancel(ctx), r.stage)
		}
	}
	if err != nil {
		abandon()
		return nil, err
	}
	total := r.made
	if total == 0 {
		abandon()
		return nil, core.Invalidf("nothing to import: %s", r.skippedText())
	}
	res := dest
	res.Compendium = &content.CompendiumReport{Entities: total, Notes: r.notes()}
	if len(r.skipped) > 0 {
		res.Compendium.Skipped = r.skipped
	}
	if module != nil {
		module.Descr = fmt.Sprintf("Imported from %s: %s.", path.Base(filepath.ToSlash(src.Name)), countText(r.imported))
		if note := secondCopyNote(ctx, in, module); note != "" {
			res.Compendium.Notes = append(res.Compendium.Notes, note)
		}
	}
	rows.Progress = func(done int) {
		r.progress.Note(content.InstallProgress{Stage: content.StageWriting, Done: int64(done), Total: int64(total), Entries: total})
	}
	return &content.Step{
		Result:  res,
		Target:  dir,
		Abandon: abandon,
		Write: func(tx core.Tx) error {
			if module == nil {
				if err := dest.Check(tx); err != nil {
					return err
				}
			} else if err := content.PutModule(tx, module, opt.Replace); err != nil {
				return err
			}
			if err := rows.Put(tx); err != nil {
				return err
			}
			if r.stage != "" {
				if _, err := tx.AdoptStaged(r.stage, dest.ID); err != nil {
					return err
				}
			}
			r.progress.Flush(content.InstallProgress{Stage: content.StageWriting, Done: int64(total), Total: int64(total), Entries: total})
			return nil
		},
		Undo: func(tx core.Tx) error {
			if module == nil {
				for _, id := range r.ids {
					if err := tx.DeleteEntity(id); err != nil && !core.IsNotFound(err) {
						return err
					}
				}
				return nil
			}
			if opt.Replace != "" {
				return nil // the old rows are gone; keep the new ones with the old files
			}
			return tx.DeleteModule(module.ID)
		},
	}, nil
}

// compendiumName names a module after its file: "SRD Monsters.compendium"
// -> "SRD Monsters".
func compendiumName(file string) string {
	name := path.Base(filepath.ToSlash(file))
	for _, ext := range []string{".xml", ".compendium", ".zip", ".compendium"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			name = name[:len(name)-len(ext)]
		}
	}
	name = strings.TrimSpace(strings.NewReplacer("_", " ").Replace(name))
	if name == "" || name == "." || name == "download" || name == "upload" {
		return "Compendium"
	}
	return name
}

// compendiumReader reads a compendium and maps its entries.
type compendiumReader struct {
	in       *content.Site
	src      Source
	mapper   CompendiumMapper
	owner    string
	prefix   string
	progress *content.Throttle
	now      time.Time

	imported map[string]int // entities made, by entity kind
	skipped  map[string]int // entries not imported, by element kind
	missing  []string       // file references the archive does not hold (the first maxMissing)
	missed   int            // how many references in all

	// stage, when set, is where the entities go as they are made, in
	// batches of StageBatch (engine.Service.StageEntities), instead of
	// being held until the install: a compendium of any size then costs
	// the memory of one batch. made counts them; ids keeps their ids when
	// keepIDs (an import into an existing module or campaign, whose undo
	// deletes them one by one).
	stage   string
	keepIDs bool
	made    int
	ids     []string
	batch   []*core.Entity
}

// StageBatch is how many entities a staged import writes at once
// (docs/limits.md).
const StageBatch = 500

// maxMissing bounds the missing file references kept for the notes.
const maxMissing = 20

// mapped is one entry of a compendium once its system hook has run.
type mapped struct {
	i        int
	entry    legacyxml.Entry
	entities []*core.Entity
	skip     bool  // a kind the system has no hook for
	err      error // the reader's or the hook's
}

// mapWorkers is how many entries are mapped at once: the Lua pool holds a
// state per processor, and the reader and the writer keep one busy.
func mapWorkers() int { return min(max(runtime.GOMAXPROCS(0), 1), 4) }

// read reads the compendium and maps its entries. The reader, the hook
// calls (several at once, each on a state of the system's pool) and the
// collector run side by side; the collector takes the entries back in
// document order, so the result, and the first error reported, are those
// of reading one entry after the other.
func (r *compendiumReader) read(ctx context.Context) (*content.Owned, error) {
	var cr entryStream
	var size int64
	if r.src.entries != nil {
		cr, size = &entrySlice{list: r.src.entries}, int64(len(r.src.entries))
	} else {
		rc, n, err := r.src.Open()
		if err != nil {
			return nil, core.Internal(err)
		}
		defer rc.Close()
		stream, err := legacyxml.NewCompendiumReader(rc, r.src.File, r.in.Limits.XML)
		if err != nil {
			return nil, xmlError(err)
		}
		cr, size = stream, n
	}
	kinds := map[string]bool{}
	for _, k := range r.mapper.ImportKinds() {
		kinds[k] = true
	}
	r.imported, r.skipped = map[string]int{}, map[string]int{}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := mapWorkers()
	jobs := make(chan mapped, 2*workers)
	results := make(chan mapped, 2*workers)
	go func() { // the reader
		defer close(jobs)
		for i := 0; ; i++ {
			entry, err := cr.Next()
			if errors.Is(err, io.EOF) {
				r.progress.Flush(content.InstallProgress{Stage: content.StageReading, Done: size, Total: size, Entries: cr.Entries()})
				return
			}
			job := mapped{i: i, entry: entry, err: err}
			if err == nil {
				r.progress.Note(content.InstallProgress{Stage: content.StageReading, Done: cr.Offset(), Total: size, Entries: cr.Entries()})
			}
			select {
			case jobs <- job:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range jobs {
				if job.err == nil {
					job = r.mapEntry(ctx, job, kinds)
				}
				select {
				case results <- job:
				case <-ctx.Done():
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	out := &content.Owned{Owner: r.owner}
	seen := map[string]int{} // entity id -> the line of the entry that made it
	pending := map[int]mapped{}
	next := 0
	var failure error
	for res := range results {
		if failure != nil {
			continue // drained: the workers stop at the cancel
		}
		pending[res.i] = res
		for {
			m, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if failure = r.collect(ctx, m, out, seen); failure != nil {
				cancel()
				break
			}
		}
	}
	if failure == nil {
		failure = r.flush(ctx)
	}
	if failure != nil {
		return nil, failure
	}
	if len(pending) > 0 || ctx.Err() != nil {
		// Cancelled from outside (the server stopping): nothing is half done.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, core.Internal(fmt.Errorf("compendium: %d entries were not collected", len(pending)))
	}
	return out, nil
}

// flush writes the entities waiting in a staged import's batch.
func (r *compendiumReader) flush(ctx context.Context) error {
	if r.stage == "" || len(r.batch) == 0 {
		return nil
	}
	err := r.in.Service.StageEntities(ctx, r.stage, r.batch)
	r.batch = nil
	return err
}

// mapEntry runs the system's hook on one entry (on a worker).
func (r *compendiumReader) mapEntry(ctx context.Context, job mapped, kinds map[string]bool) mapped {
	if !kinds[job.entry.Kind] {
		job.skip = true
		return job
	}
	el := job.entry.Element
	table, ok := el.Table().(map[string]any)
	if !ok { // an entry with only text, or nothing
		table = map[string]any{}
		if t := strings.TrimSpace(el.Text); t != "" {
			table["_text"] = t
		}
	}
	job.entities, job.err = r.mapper.MapCompendium(ctx, job.entry.Kind, table)
	if job.err != nil && ctx.Err() == nil {
		// Named by its line, its path and its name: in a file of thousands
		// of entries the person finds the one at fault.
		job.err = core.Invalidf("%s", legacyxml.Errorf(r.src.File, el, "the system's import hook failed on %s: %v", entryName(el), job.err).Error())
	}
	return job
}

// entryName is how an entry is named in an error: its kind and its
// <name>, when it has one.
func entryName(el *legacyxml.Element) string {
	if name := strings.TrimSpace(el.ChildText("name")); name != "" {
		return fmt.Sprintf("%s %q", el.Name, clipRef(name))
	}
	return "this " + el.Name
}

// collect takes one mapped entry, in document order, into out, or into
// the batch of a staged import (written when full).
func (r *compendiumReader) collect(ctx context.Context, m mapped, out *content.Owned, seen map[string]int) error {
	switch {
	case m.err != nil:
		return xmlError(m.err)
	case m.skip || len(m.entities) == 0:
		r.skipped[m.entry.Kind]++
		return nil
	}
	el := m.entry.Element
	system := r.in.Collections.SystemID()
	for _, e := range m.entities {
		e.System = system
		e.Owner = r.owner
		if err := e.Normalize(r.now); err != nil {
			return core.Invalidf("%s", legacyxml.Errorf(r.src.File, el, "the entity made from it: %s", core.MessageOf(err)).Error())
		}
		if line, dup := seen[e.ID]; dup {
			return core.Invalidf("%s", legacyxml.Errorf(r.src.File, el, "entity id '%s' was already made from the entry at line %d", e.ID, line).Error())
		}
		seen[e.ID] = el.Line
		e.Image = r.resolve(e.Image, m.entry.Kind)
		e.Token = r.resolve(e.Token, m.entry.Kind)
		r.imported[e.Kind]++
		r.made++
		if r.stage == "" {
			out.Entities = append(out.Entities, e)
			continue
		}
		if r.keepIDs {
			r.ids = append(r.ids, e.ID)
		}
		r.batch = append(r.batch, e)
		if len(r.batch) >= StageBatch {
			if err := r.flush(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolve turns a file reference of an entry into the URL path it is
// served at: a file of the archive (at its root, or in the legacy folder
// of the entry's kind), or an http(s) or data:image URL kept as written.
// A reference to a file the archive lacks (always, for a bare XML file) is
// dropped and noted in the result.
func (r *compendiumReader) resolve(ref, kind string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	lower := strings.ToLower(ref)
	if strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://") ||
		(strings.HasPrefix(lower, "data:image/") && !strings.HasPrefix(lower, "data:image/svg")) {
		return ref
	}
	rel, err := content.RelativeRef(strings.TrimPrefix(ref, "/"))
	if err == nil && r.src.Media != nil && !strings.Contains(rel, ":") {
		candidates := []string{rel}
		if folder, ok := legacyFolders[kind]; ok && !strings.Contains(rel, "/") {
			candidates = append(candidates, folder+"/"+rel)
		}
		for _, c := range candidates {
			if info, err := fs.Stat(r.src.Media, c); err == nil && info.Mode().IsRegular() {
				return r.prefix + "/" + c
			}
		}
	}
	r.missed++
	if len(r.missing) < maxMissing {
		r.missing = append(r.missing, ref)
	}
	return ""
}

// notes are what the result tells the person besides the counts.
func (r *compendiumReader) notes() []string {
	var notes []string
	if len(r.skipped) > 0 {
		notes = append(notes, r.skippedText())
	}
	if n := r.missed; n > 0 {
		notes = append(notes, fmt.Sprintf("%d image %s the archive does not hold and %s left out (first: %s)",
			n, plural(n, "reference names a file", "references name files"), plural(n, "was", "were"), clipRef(r.missing[0])))
	}
	return notes
}

// skippedText says which entries were not imported and why.
func (r *compendiumReader) skippedText() string {
	if len(r.skipped) == 0 {
		return "the compendium has no entries"
	}
	kinds := map[string]bool{}
	for _, k := range r.mapper.ImportKinds() {
		kinds[k] = true
	}
	var unmapped, declined []string
	for _, k := range sortedKinds(r.skipped) {
		text := fmt.Sprintf("%d %s", r.skipped[k], k)
		if kinds[k] {
			declined = append(declined, text)
		} else {
			unmapped = append(unmapped, text)
		}
	}
	var parts []string
	if len(unmapped) > 0 {
		parts = append(parts, strings.Join(unmapped, ", ")+" not imported: the system has no import hook for them")
	}
	if len(declined) > 0 {
		parts = append(parts, strings.Join(declined, ", ")+" not imported: the system's import hook made nothing of them")
	}
	return strings.Join(parts, "; ")
}

// countText is "24 spells, 22 items".
func countText(counts map[string]int) string {
	var parts []string
	for _, k := range sortedKinds(counts) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], plural(counts[k], k, k+"s")))
	}
	return strings.Join(parts, ", ")
}

func sortedKinds(counts map[string]int) []string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func clipRef(s string) string {
	if len(s) > 80 {
		return strings.ToValidUTF8(s[:80], "") + "…"
	}
	return s
}

// xmlError maps a reader's error to the core's kinds: a passed limit is
// too large (413), anything else invalid.
func xmlError(err error) error {
	var xe *legacyxml.Error
	if errors.As(err, &xe) {
		if xe.TooLarge {
			return core.TooLargef("%s", xe.Error())
		}
		return core.Invalidf("%s", xe.Error())
	}
	return err
}

// secondCopyNote says so when a module of the same name and system is
// already installed: compendium XML carries no ids the store could match,
// so importing the same file again makes a second module whose entries
// double every list (the acceptance trial imported its SRD monsters twice
// and found two of each). The import goes on: the person may mean it.
func secondCopyNote(ctx context.Context, in *content.Site, module *core.Module) string {
	list, err := in.Service.Modules(ctx)
	if err != nil {
		return ""
	}
	for _, m := range list {
		if m.ID != module.ID && m.System == module.System && strings.EqualFold(m.Name, module.Name) {
			return fmt.Sprintf("a module named '%s' was already installed (id %s): this import is a second copy of it, and lists show its entries twice; delete one of them (host console, Modules) if that was not meant", m.Name, m.ID)
		}
	}
	return ""
}
