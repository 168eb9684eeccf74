package imports

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/download"
)

// KindClient is the type of an offer that installs a web client, and the
// kind of its result.
const KindClient = "client"

// ClientFolderName is the folder of the data folder that holds the
// installed web client, served at /client/ instead of the built-in one.
const ClientFolderName = "client"

// clientInfoFiles are read, in this order, for the installed client's name
// and version: the Encounter+ web client's release carries manifest.json
// and, for older readers, meta.json; other builds may ship package.json.
var clientInfoFiles = []string{"manifest.json", "meta.json", "package.json"}

// maxClientInfoBytes caps the description file read for the name and version.
const maxClientInfoBytes = 64 << 10

// ClientInfo is the installed web client: GET /host/api/client.
type ClientInfo struct {
	// Installed is false when the built-in client is served.
	Installed   bool   `json:"installed"`
	Name        string `json:"name,omitempty"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
	// InstalledAt is when its files were unpacked (RFC 3339, UTC).
	InstalledAt string `json:"installedAt,omitempty"`
}

// ClientFolder is the installed web client in <data>/client. Installs and
// removals swap the whole folder under the write lock, and files are opened
// under the read lock, so a request sees the old client or the new one,
// never a mix or a gap between the two renames.
type ClientFolder struct {
	dir string
	mu  sync.RWMutex
}

// NewClientFolder returns the client folder of a data folder.
func NewClientFolder(dataDir string) *ClientFolder {
	return &ClientFolder{dir: filepath.Join(dataDir, ClientFolderName)}
}

// Open opens a file of the installed client, confined to its folder by
// os.Root (neither ".." nor a symbolic link leads out). installed is false
// when no client is installed; the built-in one is served then.
func (c *ClientFolder) Open(name string) (f *os.File, installed bool, err error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		// Nothing there, or not a folder (as Info sees it): the built-in
		// client is served.
		info, statErr := os.Stat(c.dir)
		return nil, statErr == nil && info.IsDir(), err
	}
	defer root.Close() // an open file stays readable after its root is closed
	f, err = root.Open(name)
	return f, true, err
}

// Info describes the installed client.
func (c *ClientFolder) Info() ClientInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return readClientInfo(c.dir)
}

// replace swaps the staged folder in as the installed client. The old
// client is moved to trash (which the caller removes after the swap).
func (c *ClientFolder) replace(staged, trash string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := ""
	if _, err := os.Lstat(c.dir); err == nil {
		old = trash
		if err := os.Rename(c.dir, old); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(staged, c.dir); err != nil {
		if old != "" {
			_ = os.Rename(old, c.dir)
		}
		return err
	}
	return nil
}

// remove moves the installed client to trash; installed is false when
// there was none.
func (c *ClientFolder) remove(trash string) (installed bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := os.Lstat(c.dir); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return true, os.Rename(c.dir, trash)
}

// ClientFolder returns the installed web client's folder.
func (m *Manager) ClientFolder() *ClientFolder { return m.client }

// InstallClientFile installs a web client from an uploaded zip archive,
// read whole under the download size limit.
func (m *Manager) InstallClientFile(ctx context.Context, r io.Reader) (ClientInfo, error) {
	path, cleanup, err := m.receiveUpload(r)
	if err != nil {
		return ClientInfo{}, err
	}
	defer cleanup()
	return m.installClientArchive(ctx, path)
}

// installClientArchive unpacks a web client archive into a staging folder,
// checks it and swaps it in. Any failure leaves the installed client as it
// was.
func (m *Manager) installClientArchive(ctx context.Context, path string) (ClientInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return ClientInfo{}, core.Internal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return ClientInfo{}, core.Internal(err)
	}
	head := make([]byte, 4)
	if n, _ := io.ReadFull(f, head); n < 4 || !(bytes.Equal(head, []byte("PK\x03\x04")) || bytes.Equal(head, []byte("PK\x05\x06"))) {
		return ClientInfo{}, core.Invalidf("a web client must be a zip archive with index.html at its root")
	}
	stage, err := m.in.site.NewStage()
	if err != nil {
		return ClientInfo{}, err
	}
	defer os.RemoveAll(stage) // the unpacked files on failure, the old client after a swap
	unpacked := filepath.Join(stage, "files")
	if err := os.Mkdir(unpacked, 0o755); err != nil {
		return ClientInfo{}, core.Internal(err)
	}
	if err := extractZip(f, info.Size(), unpacked, m.cfg.Limits); err != nil {
		return ClientInfo{}, err
	}
	if err := ctx.Err(); err != nil {
		return ClientInfo{}, err
	}
	root, err := clientRoot(unpacked)
	if err != nil {
		return ClientInfo{}, err
	}
	got := readClientInfo(root)
	if err := m.client.replace(root, filepath.Join(stage, "old")); err != nil {
		return ClientInfo{}, core.Internal(err)
	}
	return got, nil
}

// clientRoot is the folder of an unpacked client archive that holds its
// index.html: the archive's root, or its top folder when that folder is
// the archive's only entry (a zip of the build folder itself).
func clientRoot(unpacked string) (string, error) {
	root := unpacked
	entries, err := os.ReadDir(unpacked)
	if err != nil {
		return "", core.Internal(err)
	}
	if len(entries) == 1 && entries[0].IsDir() {
		root = filepath.Join(unpacked, entries[0].Name())
	}
	if info, err := os.Lstat(filepath.Join(root, "index.html")); err != nil || !info.Mode().IsRegular() {
		return "", core.Invalidf("the archive has no index.html at its root (or in its only top folder); it is not a web client")
	}
	return root, nil
}

// OfferClient offers a web client download on the host console: like any
// import, nothing is fetched before the person at the device accepts it,
// and the URL policy applies.
func (m *Manager) OfferClient(raw, from string) (Offer, error) {
	if _, err := download.CheckSourceURL(raw); err != nil {
		return Offer{}, err
	}
	return m.offer(Source{URL: raw}, from, KindClient, "", nil)
}

// runClientAccepted downloads and installs an accepted web client offer.
func (m *Manager) runClientAccepted(ctx context.Context, id, raw string) (Result, error) {
	progress := func(done, total int64) {
		m.update(id, func(st *offerState) { st.Progress = Transfer{Done: done, Total: total} })
	}
	path, _, cleanup, err := m.download(ctx, raw, progress)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()
	info, err := m.installClientArchive(ctx, path)
	if err != nil {
		return Result{}, err
	}
	return Result{Kind: KindClient, ID: ClientFolderName, Name: clientTitle(info)}, nil
}

// RemoveClient removes the installed web client; the built-in one is
// served again.
func (m *Manager) RemoveClient() error {
	stage, err := m.in.site.NewStage()
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	installed, err := m.client.remove(filepath.Join(stage, "old"))
	if err != nil {
		return core.Internal(err)
	}
	if !installed {
		return core.NotFoundf("no web client is installed; the built-in client is served")
	}
	return nil
}

// clientTitle names a client for an offer's result.
func clientTitle(info ClientInfo) string {
	name := info.Name
	if name == "" {
		name = "Web client"
	}
	if info.Version != "" {
		name += " " + info.Version
	}
	return name
}

// readClientInfo describes the client in dir; Installed is false when dir
// does not exist.
func readClientInfo(dir string) ClientInfo {
	stat, err := os.Stat(dir)
	if err != nil || !stat.IsDir() {
		return ClientInfo{}
	}
	out := ClientInfo{Installed: true, InstalledAt: stat.ModTime().UTC().Format(time.RFC3339)}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return out
	}
	defer root.Close()
	for _, name := range clientInfoFiles {
		var doc struct {
			Name        any `json:"name"`
			Version     any `json:"version"`
			Description any `json:"description"`
		}
		f, err := root.Open(name)
		if err != nil {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(f, maxClientInfoBytes))
		f.Close()
		if err != nil || json.Unmarshal(data, &doc) != nil {
			continue
		}
		out.Name, out.Version, out.Description = shownText(doc.Name), shownText(doc.Version), shownText(doc.Description)
		if out.Name != "" || out.Version != "" {
			return out
		}
	}
	return ClientInfo{Installed: true, InstalledAt: out.InstalledAt}
}

// shownText is a description field fit to show on one line: a string,
// without control characters, at most 200 characters.
func shownText(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s))
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
