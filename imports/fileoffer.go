package imports

import (
	"context"
	"io"
	"path"
	"strings"

	"github.com/vttapp/companion/core"
)

// File offers: a content file opened on the device (the desktop hand-off,
// `companion launch FILE`) waits on the host console like a link does.
// The file is copied into the staging folder at once (the sender may
// delete or move it), under the download size limit; Accept installs the
// copy, Decline and Dismiss remove it, and a restart sweeps the staging
// folder. Nothing is installed before the person at the device accepts.

// FromFile is the From of a file offer.
const FromFile = "file"

// OfferFile stages a file and offers it. name is the file's base name (its
// extension tells what it holds).
func (m *Manager) OfferFile(r io.Reader, name string) (Offer, error) {
	name = path.Base(strings.ReplaceAll(strings.TrimSpace(name), `\`, "/"))
	if name == "" || name == "." || name == "/" {
		return Offer{}, core.Invalidf("the offered file has no name")
	}
	if err := core.CheckUTF8("file name", []byte(name)); err != nil {
		return Offer{}, err
	}
	staged, unstage, err := m.receiveUpload(r)
	if err != nil {
		return Offer{}, err
	}
	o, err := m.offer(Source{}, FromFile, "", "", func(st *offerState) {
		st.File = name
		st.staged, st.unstage = staged, unstage
	})
	if err != nil {
		unstage()
		return Offer{}, err
	}
	return o, nil
}

// runAcceptedFile installs an accepted file offer's staged copy; the copy
// is removed whatever the outcome (the file must be offered again to retry).
func (m *Manager) runAcceptedFile(ctx context.Context, id, staged, name, destination string) (Result, error) {
	defer m.dropStaged(id)
	return m.in.InstallFile(ctx, staged, name, InstallOptions{Destination: destination, Name: name, Progress: m.offerProgress(id)})
}

// dropStaged removes an offer's staged file, if any.
func (m *Manager) dropStaged(id string) {
	var unstage func()
	m.mu.Lock()
	if st, ok := m.offers[id]; ok {
		unstage, st.unstage, st.staged = st.unstage, nil, ""
	}
	m.mu.Unlock()
	if unstage != nil {
		unstage()
	}
}
