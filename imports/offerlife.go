package imports

import (
	"context"

	"github.com/vttapp/companion/core"
)

// The end of an offer's life on the host console: a settled offer can be
// dismissed, a failed one retried, and every failure is logged with its
// reason.

// Dismiss removes an offer from the list. A pending one is declined first;
// one being downloaded cannot be dismissed (409): its install is under way.
func (m *Manager) Dismiss(id string) error {
	m.mu.Lock()
	st, ok := m.offers[id]
	if !ok {
		m.mu.Unlock()
		return core.NotFoundf("no import offer with id '%s'", id)
	}
	if st.Status == StatusDownloading {
		m.mu.Unlock()
		return core.Conflictf("the offer is downloading; wait until it is installed or fails")
	}
	if !st.settled {
		m.settleLocked(st, StatusDeclined, "")
	}
	if st.unstage != nil {
		st.unstage()
		st.unstage, st.staged = nil, ""
	}
	delete(m.offers, id)
	for i, oid := range m.order {
		if oid == id {
			m.order = append(m.order[:i], m.order[i+1:]...)
			break
		}
	}
	snapshot := st.Offer
	m.mu.Unlock()
	m.changed(snapshot)
	return nil
}

// Retry puts a failed offer back to pending, as it was offered: its
// manifest is fetched again (when it has one) and Accept may be given
// again. Only a failed offer can be retried (409 otherwise).
func (m *Manager) Retry(id string) (Offer, error) {
	m.mu.Lock()
	st, ok := m.offers[id]
	if !ok {
		m.mu.Unlock()
		return Offer{}, core.NotFoundf("no import offer with id '%s'", id)
	}
	if st.Status != StatusFailed {
		status := st.Status
		m.mu.Unlock()
		return Offer{}, core.Conflictf("only a failed offer can be retried; this one is %s", status)
	}
	if st.File != "" {
		name := st.File
		m.mu.Unlock()
		return Offer{}, core.Conflictf("the file %s was used by the failed install; open it again to offer it anew", name)
	}
	st.Status, st.Error, st.Result = StatusPending, "", nil
	st.acted = false // pending again: it waits for the person as a new offer does
	st.Progress = Transfer{Total: -1}
	st.settled, st.done = false, make(chan struct{})
	st.Checking = st.Manifest != ""
	if st.Checking {
		st.pkg, st.Package = nil, nil
	}
	snapshot := st.Offer
	m.mu.Unlock()
	m.changed(snapshot)
	if snapshot.Checking {
		m.goBackground(func(ctx context.Context) { m.checkManifest(ctx, id, snapshot.Manifest) })
	}
	return snapshot, nil
}

// logFailure logs why an offer failed, so that a failed download or
// install can be traced after the console's page has moved on.
func (m *Manager) logFailure(o Offer) {
	if m.cfg.Log == nil {
		return
	}
	source := o.Manifest
	if source == "" {
		source = o.URL
	}
	if source == "" {
		source = o.File
	}
	m.cfg.Log.Warn("import offer failed", "offer", o.ID, "type", o.Type, "source", source, "from", o.From, "reason", o.Error)
}
