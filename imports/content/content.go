package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
)

// Root files: the one at the root of an archive decides what it is.
const (
	moduleFile   = "module.json"
	campaignFile = "campaign.json"
	SystemFile   = "system.json"
	MapsFile     = "maps.json"
)

// campaignFiles are root files that only a campaign reads; they are never
// taken for entity collections.
var campaignFiles = map[string]bool{
	"combatants.json": true, "game.json": true, "screen.json": true, "messages.json": true,
}

// RootKind reports what a content folder is, from the file at its root.
func RootKind(fsys fs.FS) (string, error) {
	var found []string
	for _, name := range []string{moduleFile, campaignFile, SystemFile} {
		if _, err := fs.Stat(fsys, name); err == nil {
			found = append(found, name)
		}
	}
	switch len(found) {
	case 0:
		return KindCollection, nil
	case 1:
		return strings.TrimSuffix(found[0], ".json"), nil
	default:
		return "", core.Invalidf("the archive has %s at its root; it must have only one of module.json, campaign.json and system.json", strings.Join(found, " and "))
	}
}

// maxJSONFileBytes caps one JSON file of a content folder. Files are read
// and decoded whole, which takes several times their size in memory; the
// whole 5e SRD is a few megabytes.
var maxJSONFileBytes int64 = 256 << 20

// readJSONFile reads a content file under maxJSONFileBytes.
func readJSONFile(fsys fs.FS, name string) ([]byte, error) {
	if info, err := fs.Stat(fsys, name); err == nil && info.Size() > maxJSONFileBytes {
		return nil, core.TooLargef("%s is %d bytes; a content file may be at most %d", name, info.Size(), maxJSONFileBytes)
	}
	return fs.ReadFile(fsys, name)
}

// readObject reads a root file that must hold one JSON object.
func readObject(fsys fs.FS, name string) ([]byte, error) {
	data, err := readJSONFile(fsys, name)
	if core.KindOf(err) == core.KindTooLarge {
		return nil, err
	}
	if err != nil {
		return nil, core.Invalidf("%s cannot be read: %v", name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, core.Invalidf("%s must hold a JSON object", name)
	}
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, core.Invalidf("%s: %s", name, core.JSONErrorText(err))
	}
	return data, nil
}

// readArray reads a root file that must hold a JSON array of objects.
// A missing file is an empty array.
func readArray(fsys fs.FS, name string) ([]json.RawMessage, error) {
	data, err := readJSONFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if core.KindOf(err) == core.KindTooLarge {
		return nil, err
	}
	if err != nil {
		return nil, core.Invalidf("%s cannot be read: %v", name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '[' && json.Valid(t) {
			return nil, core.Invalidf("%s must hold a JSON array of objects", name)
		}
		return nil, core.Invalidf("%s: %s", name, core.JSONErrorText(err))
	}
	for i, item := range items {
		if t := bytes.TrimSpace(item); len(t) == 0 || t[0] != '{' {
			return nil, core.Invalidf("%s: item %d is not a JSON object", name, i+1)
		}
	}
	return items, nil
}

// decodeStrict decodes an object, refusing unknown properties.
func decodeStrict(name string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return core.Invalidf("%s: %s", name, core.JSONErrorText(err))
	}
	return nil
}

// decodeLoose decodes an object, ignoring properties Companion does not know.
func decodeLoose(name string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return core.Invalidf("%s: %s", name, core.JSONErrorText(err))
	}
	return nil
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// CheckFolderID refuses an id that cannot name a folder safely.
func CheckFolderID(what, id string) error {
	if !idPattern.MatchString(id) || strings.Contains(id, "..") {
		return core.Invalidf("%s id '%s' must be letters, digits, '.', '_' or '-' (at most 128), starting with a letter or digit", what, id)
	}
	return nil
}

// Owned is what a content folder (or a legacy archive) puts in the store
// for one owner: every format's reader fills one, and its Put writes it
// in the install's transaction.
type Owned struct {
	Owner    string
	Entities []*core.Entity
	Maps     []*core.Map
	Library  Library
	// Progress, when set, is told how many entities are written so far.
	Progress func(done int)
}

// contentReader turns the collection and map files of a folder into rows.
type contentReader struct {
	fsys   fs.FS
	cols   Collections
	owner  string // module or campaign id ("" for a system's own content)
	system string // system id the entities are tagged with
	prefix string // URL path of the folder once installed, e.g. /modules/<id>
	now    time.Time
}

// read collects every entity collection file and maps.json.
func (r contentReader) read() (*Owned, error) {
	out := &Owned{Owner: r.owner}
	names, err := fs.Glob(r.fsys, "*.json")
	if err != nil {
		return nil, core.Internal(err)
	}
	sort.Strings(names)
	for _, name := range names {
		switch {
		case name == moduleFile || name == campaignFile || name == SystemFile || campaignFiles[name]:
			continue
		case name == MapsFile:
			maps, err := r.readMaps()
			if err != nil {
				return nil, err
			}
			out.Maps = maps
			continue
		case libraryFiles[name] != "":
			// Library files come before a system collection of the same
			// label: no system should name a collection "pages". A system's
			// own content (no owner) has no library: its files are ignored.
			if r.owner == "" {
				continue
			}
			if err := r.readLibraryFile(name, &out.Library); err != nil {
				return nil, err
			}
			continue
		}
		label := strings.TrimSuffix(name, ".json")
		kind, ok := r.cols.KindForCollection(label)
		if !ok {
			continue // a collection the loaded system does not have
		}
		list, err := r.readEntities(name, label, kind)
		if err != nil {
			return nil, err
		}
		out.Entities = append(out.Entities, list...)
	}
	return out, nil
}

func (r contentReader) readEntities(file, label, kind string) ([]*core.Entity, error) {
	items, err := readArray(r.fsys, file)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	list := make([]*core.Entity, 0, len(items))
	for i, item := range items {
		where := file + " item " + itoa(i+1)
		var e core.Entity
		if err := decodeLoose(where, item, &e); err != nil {
			return nil, err
		}
		if e.Kind != "" && e.Kind != kind {
			return nil, core.Invalidf("%s: kind '%s' does not belong in %s (kind '%s')", where, e.Kind, file, kind)
		}
		e.Kind = kind
		e.System = r.system
		e.Owner = r.owner
		if err := e.Normalize(r.now); err != nil {
			return nil, core.Invalidf("%s: %s", where, core.MessageOf(err))
		}
		if seen[e.ID] {
			return nil, core.Invalidf("%s: id '%s' appears twice", where, e.ID)
		}
		seen[e.ID] = true
		if e.Image, err = r.resolve(e.Image, label); err != nil {
			return nil, core.Invalidf("%s: image: %s", where, core.MessageOf(err))
		}
		if e.Token, err = r.resolve(e.Token, label); err != nil {
			return nil, core.Invalidf("%s: token: %s", where, core.MessageOf(err))
		}
		list = append(list, &e)
	}
	return list, nil
}

func (r contentReader) readMaps() ([]*core.Map, error) {
	items, err := readArray(r.fsys, MapsFile)
	if err != nil {
		return nil, err
	}
	list := make([]*core.Map, 0, len(items))
	for i, item := range items {
		where := MapsFile + " item " + itoa(i+1)
		var m core.Map
		if err := decodeLoose(where, item, &m); err != nil {
			return nil, err
		}
		m.Owner = r.owner
		// A map without a rank is ranked by its place in the file; one
		// that states its rank (an export does) keeps it, 0 included.
		var ranked struct {
			Rank *int `json:"rank"`
		}
		if json.Unmarshal(item, &ranked) == nil && ranked.Rank == nil {
			m.Rank = i
		}
		if err := m.Normalize(); err != nil {
			return nil, core.Invalidf("%s: %s", where, core.MessageOf(err))
		}
		for _, field := range []*string{&m.Image, &m.Video, &m.Floor, &m.Canvas, &m.Snapshot, &m.Fog} {
			if *field, err = r.resolve(*field, ""); err != nil {
				return nil, core.Invalidf("%s: %s", where, core.MessageOf(err))
			}
		}
		for _, t := range m.Tokens {
			t.Normalize()
			t.MapID = m.ID
		}
		list = append(list, &m)
	}
	return list, nil
}

// resolve turns a file reference relative to the archive root into the URL
// path it is served at once installed. A bare file name of an entity
// resolves under the folder named after its collection. URLs and absolute
// paths are kept as they are.
func (r contentReader) resolve(ref, collection string) (string, error) {
	if ref == "" {
		return ref, nil
	}
	if keep, err := CheckExternalRef(ref); keep || err != nil {
		return ref, err
	}
	rel, err := RelativeRef(ref)
	if err != nil {
		return "", err
	}
	if collection != "" && !strings.Contains(rel, "/") {
		rel = collection + "/" + rel
	}
	return r.prefix + "/" + rel, nil
}

// CheckExternalRef decides whether a reference is kept as written: an
// http(s) URL, a data:image URL or an absolute path on this server. Other
// URLs (javascript:, data:text/html, file:, protocol-relative //host) are
// refused: references end up in src and href attributes of pages served
// from this origin. keep is false for a path relative to the content folder.
func CheckExternalRef(ref string) (keep bool, err error) {
	lower := strings.ToLower(ref)
	switch {
	case strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "http://"):
		return true, nil
	case strings.HasPrefix(lower, "data:image/") && !strings.HasPrefix(lower, "data:image/svg"):
		return true, nil
	case strings.HasPrefix(ref, "//"), strings.HasPrefix(ref, `\`):
		return false, core.Invalidf("'%s' names another server without a scheme; use https://", ref)
	case strings.HasPrefix(ref, "/"):
		return true, nil
	case strings.Contains(ref, ":"):
		scheme, _, _ := strings.Cut(ref, ":")
		if !strings.ContainsAny(scheme, "/.") {
			return false, core.Invalidf("'%s' is not allowed: a file reference is a path inside the archive, an http(s) URL or a data:image URL (not '%s:')", ref, scheme)
		}
	}
	return false, nil
}

// RelativeRef checks a path relative to a content folder.
func RelativeRef(ref string) (string, error) {
	if strings.Contains(ref, `\`) {
		return "", core.Invalidf("path '%s' uses a backslash; use '/'", ref)
	}
	clean := path.Clean(ref)
	if clean == ".." || strings.HasPrefix(clean, "../") || !fs.ValidPath(clean) {
		return "", core.Invalidf("path '%s' points outside the content folder", ref)
	}
	return clean, nil
}

// Put writes the rows. An id that already belongs to other content is a
// conflict: an archive must never take over someone else's rows.
func (o *Owned) Put(tx core.Tx) error {
	if err := o.putContent(tx); err != nil {
		return err
	}
	return o.Library.put(tx, o.Owner)
}

// Empty reports whether the folder held nothing to install.
func (o *Owned) Empty() bool {
	return len(o.Entities) == 0 && len(o.Maps) == 0 && o.Library.empty()
}

func (o *Owned) putContent(tx core.Tx) error {
	for i, e := range o.Entities {
		old, err := tx.Entity(e.ID)
		switch {
		case err == nil && old.Owner != o.Owner:
			return core.Conflictf("entity id '%s' (%s) already belongs to other content", e.ID, e.Name)
		case err != nil && !core.IsNotFound(err):
			return err
		}
		if err := tx.PutEntity(e); err != nil {
			return err
		}
		if o.Progress != nil {
			o.Progress(i + 1)
		}
	}
	for _, m := range o.Maps {
		old, err := tx.Map(m.ID)
		switch {
		case err == nil && old.Owner != o.Owner:
			return core.Conflictf("map id '%s' (%s) already belongs to other content", m.ID, m.Name)
		case err != nil && !core.IsNotFound(err):
			return err
		}
		for _, t := range m.Tokens {
			oldToken, err := tx.Token(t.ID)
			if err == nil && oldToken.MapID != m.ID {
				return core.Conflictf("token id '%s' on map '%s' already stands on another map", t.ID, m.Name)
			}
			if err != nil && !core.IsNotFound(err) {
				return err
			}
		}
		if err := tx.PutMap(m); err != nil {
			return err
		}
	}
	return nil
}

func itoa(i int) string { return strconv.Itoa(i) }
