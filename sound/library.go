// Package sound is the table's sound: the audio library kept in the
// primary campaign's folder (library.go) and the playback state every
// screen follows (deck.go): which playlists play, which track, from when
// on the server's clock, or paused where. It knows nothing of HTTP: routes
// hands it uploads and controls, and it publishes soundUpdated through the
// core's bus, which the hub relays to every connection.
package sound

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/media"
)

// Limits of the library (docs/limits.md).
const (
	// MaxTrackBytes bounds one uploaded sound file: a long ambience loop
	// in FLAC or WAV fits, a film soundtrack does not.
	MaxTrackBytes = 256 << 20
	// MaxTracks bounds the files a campaign's library holds.
	MaxTracks = 5000
	// MaxTags bounds a track's tags, MaxTagLength each tag's, MaxNameLength
	// its name's (in characters).
	MaxTags       = 20
	MaxTagLength  = 40
	MaxNameLength = 200
)

// Track is one sound file of the library.
type Track struct {
	ID string `json:"id"`
	// URL is where players' pages fetch it (a data folder path served
	// with range requests).
	URL  string `json:"url"`
	Name string `json:"name"`
	// Duration in seconds, read from the file's header; 0 when unknown.
	Duration float64   `json:"duration"`
	Tags     []string  `json:"tags"`
	Format   string    `json:"format"` // "Ogg Vorbis", "MP3"...
	Size     int64     `json:"size"`   // bytes
	Added    time.Time `json:"added"`
}

// TrackChange is what the game master may change of a track.
type TrackChange struct {
	Name *string  `json:"name,omitempty"`
	Tags []string `json:"tags,omitempty"`
}

// Folder is where a campaign keeps its sound: a folder of the data folder
// and the URL path that serves it.
type Folder struct {
	Dir, URL string
}

// Library is the audio library of the primary campaign. Locate names the
// folder at each call (the primary campaign may change).
type Library struct {
	Locate func(context.Context) (Folder, error)
	// MaxBytes bounds an upload (MaxTrackBytes when 0).
	MaxBytes int64
	mu       sync.Mutex // one change at a time: the count and the names
}

// sidecar is a track's own record beside its file: <id>.json.
const sidecar = ".json"

// Add stores the sound file read from src (its name given by the
// uploader, used as the track's name only) and returns the track. The
// file is written to a temporary name and renamed once whole and checked:
// an upload that breaks off, is too large or is not sound leaves nothing.
func (l *Library) Add(ctx context.Context, fileName string, src io.Reader) (Track, error) {
	f, err := l.Locate(ctx)
	if err != nil {
		return Track{}, err
	}
	if err := os.MkdirAll(f.Dir, 0o755); err != nil {
		return Track{}, core.Internal(err)
	}
	tmp, err := os.CreateTemp(f.Dir, ".upload-*")
	if err != nil {
		return Track{}, core.Internal(err)
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	limit := l.MaxBytes
	if limit <= 0 {
		limit = MaxTrackBytes
	}
	n, err := io.Copy(tmp, io.LimitReader(src, limit+1))
	if err != nil {
		return Track{}, &core.Error{Kind: core.KindInvalid, Message: fmt.Sprintf("the upload broke off after %d bytes: %v", n, err), Err: err}
	}
	if n > limit {
		return Track{}, core.TooLargef("a sound file may be at most %d MiB", limit>>20)
	}
	info, err := media.ProbeAudio(tmp, n)
	if err != nil {
		return Track{}, core.Invalidf("'%s' is not a sound file this server plays: %v", core.Clip(fileName), err)
	}
	if err := tmp.Close(); err != nil {
		return Track{}, core.Internal(err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if tracks, err := readTracks(f); err != nil {
		return Track{}, err
	} else if len(tracks) >= MaxTracks {
		return Track{}, core.Conflictf("the library holds %d sound files, the most it may", MaxTracks)
	}
	id := core.NewID()
	t := Track{ID: id, URL: path.Join(f.URL, id+info.Ext), Name: trackName(fileName), Duration: info.Duration,
		Tags: []string{}, Format: info.Name, Size: n, Added: time.Now().UTC().Truncate(time.Second)}
	file := filepath.Join(f.Dir, id+info.Ext)
	if err := os.Rename(tmp.Name(), file); err != nil {
		return Track{}, core.Internal(err)
	}
	keep = true
	if err := writeJSON(filepath.Join(f.Dir, id+sidecar), t); err != nil {
		os.Remove(file)
		return Track{}, core.Internal(err)
	}
	return t, nil
}

// List returns every track, oldest first.
func (l *Library) List(ctx context.Context) ([]Track, error) {
	f, err := l.Locate(ctx)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return readTracks(f)
}

// Get returns one track.
func (l *Library) Get(ctx context.Context, id string) (Track, error) {
	f, err := l.Locate(ctx)
	if err != nil {
		return Track{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return readTrack(f, id)
}

// Change renames a track or sets its tags.
func (l *Library) Change(ctx context.Context, id string, c TrackChange) (Track, error) {
	f, err := l.Locate(ctx)
	if err != nil {
		return Track{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t, err := readTrack(f, id)
	if err != nil {
		return Track{}, err
	}
	if c.Name != nil {
		name := strings.TrimSpace(*c.Name)
		if name == "" || utf8.RuneCountInString(name) > MaxNameLength || strings.ContainsFunc(name, unicode.IsControl) {
			return Track{}, core.Invalidf("a track's name is 1 to %d characters without control characters", MaxNameLength)
		}
		t.Name = name
	}
	if c.Tags != nil {
		tags, err := cleanTags(c.Tags)
		if err != nil {
			return Track{}, err
		}
		t.Tags = tags
	}
	if err := writeJSON(filepath.Join(f.Dir, id+sidecar), t); err != nil {
		return Track{}, core.Internal(err)
	}
	return t, nil
}

// Delete removes a track's file and record.
func (l *Library) Delete(ctx context.Context, id string) (Track, error) {
	f, err := l.Locate(ctx)
	if err != nil {
		return Track{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t, err := readTrack(f, id)
	if err != nil {
		return Track{}, err
	}
	if err := os.Remove(filepath.Join(f.Dir, id+sidecar)); err != nil {
		return Track{}, core.Internal(err)
	}
	os.Remove(filepath.Join(f.Dir, path.Base(t.URL)))
	return t, nil
}

func cleanTags(in []string) ([]string, error) {
	if len(in) > MaxTags {
		return nil, core.Invalidf("a track has at most %d tags, not %d", MaxTags, len(in))
	}
	out := []string{}
	for _, tag := range in {
		tag = strings.ToLower(strings.TrimSpace(tag))
		if tag == "" || utf8.RuneCountInString(tag) > MaxTagLength || strings.ContainsFunc(tag, unicode.IsControl) {
			return nil, core.Invalidf("a tag is 1 to %d characters without control characters", MaxTagLength)
		}
		if !slices.Contains(out, tag) {
			out = append(out, tag)
		}
	}
	return out, nil
}

// trackName is the name a track gets from its uploaded file's: the base
// name without its extension, control characters dropped, clipped. The
// uploaded name never becomes a path: the file is stored under its id.
func trackName(fileName string) string {
	base := fileName[strings.LastIndexAny(fileName, `/\`)+1:]
	base = strings.TrimSuffix(base, path.Ext(base))
	base = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, base)
	base = strings.TrimSpace(base)
	if r := []rune(base); len(r) > MaxNameLength {
		base = string(r[:MaxNameLength])
	}
	if base == "" || base == "." || base == ".." {
		return "Untitled"
	}
	return base
}

// validID: a track id is ours (a UUID): letters, digits and dashes only,
// so that it never names another file.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func readTrack(f Folder, id string) (Track, error) {
	if !validID(id) {
		return Track{}, core.NotFoundf("no sound file '%s'", core.Clip(id))
	}
	b, err := os.ReadFile(filepath.Join(f.Dir, id+sidecar))
	if errors.Is(err, os.ErrNotExist) {
		return Track{}, core.NotFoundf("no sound file '%s'", core.Clip(id))
	}
	if err != nil {
		return Track{}, core.Internal(err)
	}
	var t Track
	if err := json.Unmarshal(b, &t); err != nil || t.ID != id {
		return Track{}, core.Internal(fmt.Errorf("sound: the record %s.json is damaged: %v", id, err))
	}
	t.URL = path.Join(f.URL, path.Base(t.URL)) // the campaign's folder may have moved (an import)
	if t.Tags == nil {
		t.Tags = []string{}
	}
	return t, nil
}

func readTracks(f Folder) ([]Track, error) {
	entries, err := os.ReadDir(f.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return []Track{}, nil
	}
	if err != nil {
		return nil, core.Internal(err)
	}
	out := []Track{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), sidecar)
		if !ok || !e.Type().IsRegular() || !validID(id) {
			continue
		}
		t, err := readTrack(f, id)
		if err != nil {
			continue // a damaged record is left out, not fatal to the list
		}
		if _, err := os.Stat(filepath.Join(f.Dir, path.Base(t.URL))); err != nil {
			continue // its file is gone
		}
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b Track) int {
		if c := a.Added.Compare(b.Added); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// writeJSON writes v to name whole or not at all (temporary file, rename).
func writeJSON(name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".record-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), name)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}

// soundExtensions are the file names AddFrom looks at; what each holds is
// checked by its content, as an upload's is.
var soundExtensions = map[string]bool{".ogg": true, ".oga": true, ".opus": true, ".mp3": true, ".m4a": true, ".aac": true, ".wav": true, ".flac": true}

// Skipped is a file AddFrom left out, and why.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// Added is what AddFrom did: the tracks it added and the files it left out.
type Added struct {
	Added   []Track   `json:"added"`
	Skipped []Skipped `json:"skipped"`
}

// AddFrom adds the sound files found in dir (a module's folder, walked
// whole) to the library, each tagged tag (when given): a module's music
// and ambience become the table's. A file is checked by its content as an
// upload is; one the library holds already (the same name and size: the
// module added before) is left out, as is one that is not sound.
func (l *Library) AddFrom(ctx context.Context, dir fs.FS, tag string) (Added, error) {
	out := Added{Added: []Track{}, Skipped: []Skipped{}}
	have, err := l.List(ctx)
	if err != nil {
		return out, err
	}
	held := map[string]bool{}
	for _, t := range have {
		held[t.Name+"\x00"+strconv.FormatInt(t.Size, 10)] = true
	}
	var files []string
	err = fs.WalkDir(dir, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is left out
		}
		if d.Type().IsRegular() && soundExtensions[strings.ToLower(path.Ext(p))] && len(files) < MaxTracks {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return out, core.Internal(err)
	}
	var tags []string
	if tag != "" {
		if tags, err = cleanTags([]string{tag}); err != nil {
			tags = nil
		}
	}
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		f, err := dir.Open(name)
		if err != nil {
			out.Skipped = append(out.Skipped, Skipped{name, "cannot be read"})
			continue
		}
		info, err := f.Stat()
		if err == nil && held[trackName(name)+"\x00"+strconv.FormatInt(info.Size(), 10)] {
			f.Close()
			out.Skipped = append(out.Skipped, Skipped{name, "already in the library"})
			continue
		}
		t, err := l.Add(ctx, name, f)
		f.Close()
		if err != nil {
			out.Skipped = append(out.Skipped, Skipped{name, core.MessageOf(err)})
			continue
		}
		if tags != nil {
			if changed, err := l.Change(ctx, t.ID, TrackChange{Tags: tags}); err == nil {
				t = changed
			}
		}
		out.Added = append(out.Added, t)
	}
	return out, nil
}
