package export

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
)

// Archive is a module or a campaign written out as an archive of the content
// format (docs/content-format.md), the same format the installer reads, so
// that importing it gives back the same content: every entity, map (with
// its tokens, walls, lights, markers, fog...), combatant, the game, the
// screen and the messages, with the same ids, and the files of the
// owner's folder.
//
// It runs in two steps so that a slow download never holds the database:
// Stage reads everything in one read transaction (a consistent picture
// while play goes on) and writes the archive's JSON files into a staging
// folder; WriteZip then streams those files and the owner's media as a
// zip, one file at a time.
type Archive struct {
	Kind string `json:"kind"` // content.KindModule or content.KindCampaign
	ID   string `json:"id"`
	Name string `json:"name"`
	// FileName is what to save the archive as: <slug>.module or <slug>.campaign.
	FileName string `json:"fileName"`
	// Needs are the modules and campaigns whose entities this content's
	// tokens and combatants point at by id: the archive names them but does
	// not carry them, so export them too to move a whole game.
	Needs []content.Result `json:"needs"`

	stage  string   // the JSON files, written by Stage
	files  []string // their names, in archive order
	folder string   // the owner's folder in the data folder
}

// exportPart writes one kind of content into the archive. The parts are
// the content kinds an archive carries, in the order it lists them; a new
// kind is one more row of exportParts, and its file is read back where the
// installer reads the others (package content: content.go, steps.go,
// library.go).
type exportPart struct {
	campaignOnly bool
	write        func(w *exportWriter) error
}

var exportParts = []exportPart{
	{write: (*exportWriter).entities},                       // <collection>.json, one per kind
	{write: (*exportWriter).maps},                           // maps.json, tokens embedded
	{write: (*exportWriter).groups},                         // groups.json
	{write: (*exportWriter).pages},                          // pages.json, own files' URLs made relative again
	{write: (*exportWriter).encounters},                     // encounters.json
	{write: (*exportWriter).tables},                         // tables.json
	{write: (*exportWriter).assets},                         // assets.json
	{campaignOnly: true, write: (*exportWriter).combatants}, // combatants.json, in initiative rank order
	{campaignOnly: true, write: (*exportWriter).game},       // game.json
	{campaignOnly: true, write: (*exportWriter).screen},     // screen.json
	{campaignOnly: true, write: (*exportWriter).messages},   // messages.json, oldest first
}

// CollectionLabels is what an export needs of the loaded system besides
// Collections: the collection label of an entity kind ("monster" ->
// "monsters"), which names the kind's file in the archive.
type CollectionLabels interface {
	CollectionForKind(kind string) (label string, ok bool)
}

// Stage reads the module or campaign id (kind content.KindModule or
// content.KindCampaign) of the site in one read transaction and stages its
// archive's JSON files. Close removes them; WriteZip streams the archive.
func Stage(ctx context.Context, in *content.Site, kind, id string) (*Archive, error) {
	if kind != content.KindModule && kind != content.KindCampaign {
		return nil, core.Invalidf("only a module or a campaign can be exported, not a '%s'", core.Clip(kind))
	}
	labels, ok := in.Collections.(CollectionLabels)
	if !ok {
		return nil, core.Internal(errors.New("export: the loaded system does not name its collections"))
	}
	stage, err := in.NewStage()
	if err != nil {
		return nil, err
	}
	x := &Archive{Kind: kind, ID: id, stage: stage, Needs: []content.Result{}}
	err = in.Service.ReadContent(ctx, func(tx core.Tx) error {
		_, prefix := in.OwnerFolder(kind, id)
		w := &exportWriter{tx: tx, labels: labels, dir: stage, kind: kind, owner: id, prefix: prefix,
			own: map[string]bool{}, links: map[string]bool{}}
		if err := w.root(x); err != nil {
			return err
		}
		for _, part := range exportParts {
			if part.campaignOnly && kind != content.KindCampaign {
				continue
			}
			if err := part.write(w); err != nil {
				return err
			}
		}
		x.files = w.files
		needs, err := w.needs()
		x.Needs = needs
		return err
	})
	if err != nil {
		os.RemoveAll(stage)
		return nil, err
	}
	if content.CheckFolderID(kind, id) == nil {
		x.folder, _ = in.OwnerFolder(kind, id)
	}
	if err := fitsImport(ctx, in.Limits, x); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

// Close removes the staged files.
func (x *Archive) Close() error { return os.RemoveAll(x.stage) }

// WriteZip streams the archive to out: the JSON files, then every file of
// the owner's folder under the same path (media are stored as they are,
// already compressed). A file removed meanwhile (a fog mask replaced) is
// left out. On error the zip is left unfinished, so it cannot be mistaken
// for a whole archive.
func (x *Archive) WriteZip(ctx context.Context, out io.Writer) error {
	zw := zip.NewWriter(out)
	now := time.Now()
	for _, name := range x.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := zipFile(zw, filepath.Join(x.stage, name), name, zip.Deflate, now); err != nil {
			return err
		}
	}
	err := x.eachFolderFile(ctx, func(p, rel string, info fs.FileInfo) error {
		method := zip.Deflate
		if storedAsIs[strings.ToLower(path.Ext(rel))] {
			method = zip.Store
		}
		err := zipFile(zw, p, rel, method, info.ModTime())
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	return zw.Close()
}

// eachFolderFile calls fn with every file of the owner's folder the
// archive carries (path, path in the archive, its info), in WalkDir order.
func (x *Archive) eachFolderFile(ctx context.Context, fn func(p, rel string, info fs.FileInfo) error) error {
	if x.folder == "" {
		return nil
	}
	return filepath.WalkDir(x.folder, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil // folders are implied; links are never followed
		}
		rel, err := filepath.Rel(x.folder, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !strings.Contains(rel, "/") && strings.EqualFold(path.Ext(rel), ".json") {
			return nil // a data file an older version left: the archive's own say what it holds
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		return fn(p, rel, info)
	})
}

// fitsImport refuses an export that an import would refuse: more files
// than an archive may hold, more bytes unpacked, or more media (stored in
// the zip as they are, so the archive is at least that big) than an
// upload or download may bring. An archive that cannot be imported back
// is no export: the game master hears it before the download starts.
func fitsImport(ctx context.Context, l content.Limits, x *Archive) error {
	files, total, stored := len(x.files), int64(0), int64(0)
	for _, name := range x.files {
		if info, err := os.Stat(filepath.Join(x.stage, name)); err == nil {
			total += info.Size()
		}
	}
	err := x.eachFolderFile(ctx, func(p, rel string, info fs.FileInfo) error {
		files++
		total += info.Size()
		if storedAsIs[strings.ToLower(path.Ext(rel))] {
			stored += info.Size()
		}
		return nil
	})
	if err != nil {
		return core.Internal(err)
	}
	what := "the " + x.Kind + " '" + core.Clip(x.Name) + "'"
	switch {
	case files > l.MaxEntries:
		return core.TooLargef("%s would be an archive of %d files, and an import takes at most %d: it could not be imported back", what, files, l.MaxEntries)
	case total > l.MaxTotalBytes:
		return core.TooLargef("%s would unpack to %s, and an import takes at most %s: it could not be imported back", what, sizeText(total), sizeText(l.MaxTotalBytes))
	case stored > l.MaxDownloadBytes:
		return core.TooLargef("%s holds %s of media, and an import takes an archive of at most %s: it could not be imported back", what, sizeText(stored), sizeText(l.MaxDownloadBytes))
	}
	return nil
}

// sizeText is n bytes for a message: 3.2 GiB, 640 MiB, 12 KiB, 80 bytes.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// storedAsIs are the extensions of files that are compressed already:
// deflating them again costs time and saves nothing.
var storedAsIs = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".webp": true, ".gif": true,
	".mp4": true, ".m4v": true, ".webm": true, ".mov": true, ".ogv": true, ".mp3": true, ".ogg": true,
	".oga": true, ".m4a": true, ".opus": true, ".woff": true, ".woff2": true, ".zip": true, ".pdf": true}

// zipFile copies the file at p into the archive as name.
func zipFile(zw *zip.Writer, p, name string, method uint16, modified time.Time) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: modified})
	if err != nil {
		return err
	}
	_, err = io.Copy(w, f)
	return err
}

// exportWriter writes the archive's JSON files from one read transaction.
type exportWriter struct {
	tx     core.Tx
	labels CollectionLabels
	dir    string
	kind   string
	owner  string
	prefix string   // the owner folder's URL path, /modules/<id> or /campaigns/<id>
	files  []string // written so far, in order
	own    map[string]bool
	links  map[string]bool // entity ids that tokens and combatants point at
}

// root writes module.json or campaign.json and names the export.
func (w *exportWriter) root(x *Archive) error {
	var doc any
	var slug string
	if w.kind == content.KindModule {
		m, err := w.tx.Module(w.owner)
		if core.IsNotFound(err) {
			return core.NotFoundf("no module with id '%s'", core.Clip(w.owner))
		}
		if err != nil {
			return err
		}
		m.Package = "" // only a manifest's install is trusted for updates: an archive's is dropped
		doc, x.Name, slug = m, m.Name, m.Slug
	} else {
		c, err := w.tx.Campaign(w.owner)
		if core.IsNotFound(err) {
			return core.NotFoundf("no campaign with id '%s'", core.Clip(w.owner))
		}
		if err != nil {
			return err
		}
		doc, x.Name, slug = c, c.Name, c.Slug
	}
	if slug = core.Slugify(slug); slug == "" {
		slug = w.kind
	}
	x.FileName = slug + "." + w.kind
	return w.object(w.kind+".json", doc)
}

func (w *exportWriter) entities() error {
	list, err := w.tx.Entities(core.EntityQuery{Owner: w.owner})
	if err != nil {
		return err
	}
	arrays := map[string]*jsonArray{}
	defer func() {
		for _, a := range arrays {
			a.abandon()
		}
	}()
	for _, e := range list {
		label, ok := w.labels.CollectionForKind(e.Kind)
		if !ok {
			return core.Conflictf("entity '%s' is a '%s', which the loaded system has no collection for: load its system to export it", core.Clip(e.Name), core.Clip(e.Kind))
		}
		a := arrays[label]
		if a == nil {
			if a, err = w.array(label + ".json"); err != nil {
				return err
			}
			arrays[label] = a
		}
		out := *e
		out.Image = w.relative(e.Image, true)
		out.Token = w.relative(e.Token, true)
		if err := a.add(&out); err != nil {
			return err
		}
		w.own[e.ID] = true
	}
	labels := make([]string, 0, len(arrays))
	for label := range arrays {
		labels = append(labels, label)
	}
	sort.Strings(labels)
	for _, label := range labels {
		if err := arrays[label].close(); err != nil {
			return err
		}
		delete(arrays, label)
	}
	return nil
}

func (w *exportWriter) maps() error {
	maps, err := w.tx.Maps(w.owner)
	if err != nil || len(maps) == 0 {
		return err
	}
	a, err := w.array(content.MapsFile)
	if err != nil {
		return err
	}
	defer a.abandon()
	for _, m := range maps {
		out := *m
		for _, field := range []*string{&out.Image, &out.Video, &out.Floor, &out.Canvas, &out.Snapshot, &out.Fog} {
			*field = w.relative(*field, false)
		}
		for _, t := range m.Tokens {
			if t.EntityID != nil {
				w.links[*t.EntityID] = true
			}
		}
		if err := a.add(&out); err != nil {
			return err
		}
	}
	return a.close()
}

func (w *exportWriter) combatants() error {
	list, err := w.tx.Combatants(w.owner)
	if err != nil || len(list) == 0 {
		return err
	}
	a, err := w.array("combatants.json")
	if err != nil {
		return err
	}
	defer a.abandon()
	for _, c := range list {
		if c.EntityID != "" {
			w.links[c.EntityID] = true
		}
		if err := a.add(c); err != nil {
			return err
		}
	}
	return a.close()
}

func (w *exportWriter) game() error {
	g, err := w.tx.Game(w.owner)
	if err != nil {
		return err
	}
	g.Combatants = nil // they are combatants.json
	return w.object("game.json", g)
}

func (w *exportWriter) screen() error {
	s, err := w.tx.Screen(w.owner)
	if err != nil {
		return err
	}
	return w.object("screen.json", s)
}

func (w *exportWriter) messages() error {
	a, err := w.array("messages.json")
	if err != nil {
		return err
	}
	defer a.abandon()
	if err := w.tx.EachMessage(w.owner, func(m *core.Message) error { return a.add(m) }); err != nil {
		return err
	}
	if a.n == 0 {
		a.abandon()
		return nil
	}
	return a.close()
}

// relative turns a URL path into the owner's folder back into a path
// relative to the archive root, which the installer resolves to the same
// URL path again. Anything else (another owner's file, a system's, a URL)
// is kept as written. An entity's bare file name would resolve under its
// collection's folder, so a file at the folder's root keeps its URL path.
func (w *exportWriter) relative(ref string, entity bool) string {
	rel, ok := strings.CutPrefix(ref, w.prefix+"/")
	if !ok || rel == "" || path.Clean(rel) != rel || !fs.ValidPath(rel) || strings.Contains(rel, `\`) {
		return ref
	}
	if entity && !strings.Contains(rel, "/") {
		return ref
	}
	return rel
}

// needs names the owners of the entities this content points at and does
// not carry.
func (w *exportWriter) needs() ([]content.Result, error) {
	owners := map[string]bool{}
	for id := range w.links {
		if w.own[id] {
			continue
		}
		e, err := w.tx.Entity(id)
		if core.IsNotFound(err) {
			continue // a link to nothing stays a link to nothing
		}
		if err != nil {
			return nil, err
		}
		if e.Owner != "" && e.Owner != w.owner {
			owners[e.Owner] = true
		}
	}
	out := []content.Result{}
	for id := range owners {
		if m, err := w.tx.Module(id); err == nil {
			out = append(out, content.Result{Kind: content.KindModule, ID: m.ID, Name: m.Name})
		} else if c, err := w.tx.Campaign(id); err == nil {
			out = append(out, content.Result{Kind: content.KindCampaign, ID: c.ID, Name: c.Name})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// object writes one JSON document as the archive file name.
func (w *exportWriter) object(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return core.Internal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, name), append(data, '\n'), 0o644); err != nil {
		return core.Internal(err)
	}
	w.files = append(w.files, name)
	return nil
}

// array starts a JSON array file written one element at a time.
func (w *exportWriter) array(name string) (*jsonArray, error) {
	f, err := os.Create(filepath.Join(w.dir, name))
	if err != nil {
		return nil, core.Internal(err)
	}
	a := &jsonArray{f: f, buf: bufio.NewWriterSize(f, 64<<10), name: name, w: w}
	a.buf.WriteString("[")
	return a, nil
}

// jsonArray is an archive file being written as a JSON array.
type jsonArray struct {
	f    *os.File
	buf  *bufio.Writer
	name string
	n    int
	w    *exportWriter
	done bool
}

func (a *jsonArray) add(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return core.Internal(err)
	}
	if a.n > 0 {
		a.buf.WriteString(",")
	}
	a.buf.WriteString("\n  ")
	if _, err := a.buf.Write(data); err != nil {
		return core.Internal(err)
	}
	a.n++
	return nil
}

// close finishes the array and lists the file in the archive.
func (a *jsonArray) close() error {
	a.done = true
	a.buf.WriteString("\n]\n")
	err := a.buf.Flush()
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return core.Internal(err)
	}
	a.w.files = append(a.w.files, a.name)
	return nil
}

// abandon drops an array not closed (an error on the way, or empty).
func (a *jsonArray) abandon() {
	if !a.done {
		a.done = true
		a.f.Close()
		os.Remove(a.f.Name())
	}
}
