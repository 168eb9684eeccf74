package routes

import (
	"bytes"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// rootBase finds a <base href="/"> element: a client built to be served at
// the server's root. The Encounter+ web client's index.html has one, and
// its release zip is made to be unpacked into the application's client
// folder and served at /client/; with that base its relative script and
// style names would resolve at the root (/main.js), where this server
// answers entity references, and Angular's router would see "client" as
// a route. Served as <base href="/client/">, they resolve in the client's
// folder and the router starts at its empty route.
var rootBase = regexp.MustCompile(`(?i)<base\s+href\s*=\s*(?:"/"|'/')`)

// maxRebasedIndex caps the index.html read whole to be rebased; a larger
// one is served as it is.
const maxRebasedIndex = 4 << 20

// rebaseIndex returns the installed client's index.html with a root base
// made /client/, or f itself (rewound) when there is none to change.
func rebaseIndex(f fs.File) (fs.File, error) {
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	seeker, ok := f.(io.ReadSeeker)
	if !ok || !info.Mode().IsRegular() || info.Size() > maxRebasedIndex {
		return f, nil
	}
	data, err := io.ReadAll(io.LimitReader(seeker, maxRebasedIndex))
	if err == nil {
		_, err = seeker.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	loc := rootBase.FindIndex(data)
	if loc == nil {
		return f, nil
	}
	f.Close()
	out := make([]byte, 0, len(data)+16)
	out = append(out, data[:loc[0]]...)
	out = append(out, `<base href="/client/"`...)
	out = append(out, data[loc[1]:]...)
	return &memFile{Reader: bytes.NewReader(out), name: info.Name(), size: int64(len(out))}, nil
}

// memFile is a rewritten file served from memory. Its zero time makes
// serveFile use a hash of the bytes as the ETag, so the tag follows the
// rewritten content.
type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (m *memFile) Stat() (fs.FileInfo, error) { return m, nil }
func (m *memFile) Close() error               { return nil }
func (m *memFile) Name() string               { return m.name }
func (m *memFile) Size() int64                { return m.size }
func (m *memFile) Mode() fs.FileMode          { return 0o444 }
func (m *memFile) ModTime() time.Time         { return time.Time{} }
func (m *memFile) IsDir() bool                { return false }
func (m *memFile) Sys() any                   { return nil }

// entityFrameLiteral is the fixed origin the Encounter+ web client frames
// entity pages at (`http://localhost:8080${reference}` in its stat-block
// modal): the address of the application it was written for, on the same
// device. On a player's phone that is the phone itself, and the frame
// stays empty. Served by Companion, the literal is dropped where a rooted
// path or a template expression follows it, leaving the rooted path
// ("/monster/goblin"): the page's own origin, whatever address, port or
// proxy the player reached it through (and without trusting a Host header
// to write script). Other occurrences are left as they are.
var entityFrameLiteral = regexp.MustCompile(`http://localhost:8080(/|\$\{)`)

// maxRebasedScript caps a script read whole to be rewritten; a larger one
// is served as it is.
const maxRebasedScript = 32 << 20

// clientScript is the rewritten form of one installed script (or none,
// when it has nothing to rewrite), for the file it was made from.
type clientScript struct {
	key  string // name, size and time of the file it was made from
	body *cachedBody
}

// clientScripts keeps the rewritten scripts of the installed client by
// name: read, rewritten, hashed and gzipped once per installed file, not
// once a request (the real client's main script is about 1.5 MB).
type clientScripts struct{ byName sync.Map }

// rebased returns the cached answer for an installed script (open as f)
// whose entity frame literal was rewritten, or nil when it has none (or
// cannot be read whole) and the file is served as it is. f is rewound.
func (c *clientScripts) rebased(name string, f fs.File) *cachedBody {
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxRebasedScript {
		return nil
	}
	key := name + "\x00" + strconv.FormatInt(info.Size(), 10) + "\x00" + info.ModTime().UTC().Format(time.RFC3339Nano)
	if v, ok := c.byName.Load(name); ok && v.(*clientScript).key == key {
		return v.(*clientScript).body
	}
	seeker, ok := f.(io.ReadSeeker)
	if !ok {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(seeker, maxRebasedScript))
	if _, seekErr := seeker.Seek(0, io.SeekStart); err != nil || seekErr != nil {
		return nil
	}
	entry := &clientScript{key: key}
	if entityFrameLiteral.Match(data) {
		out := entityFrameLiteral.ReplaceAll(data, []byte("$1"))
		entry.body = newCachedBody(out, "", "text/javascript; charset=utf-8")
	}
	c.byName.Store(name, entry)
	return entry.body
}
