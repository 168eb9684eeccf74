package routes

import (
	"bytes"
	"io"
	"io/fs"
	"regexp"
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
