package imports

import (
	"sort"
	"sync"

	"github.com/vttapp/companion/core"
)

// Activity is an import the host console asked for directly (a file it
// uploaded, a URL it gave) while it runs: the console shows its progress
// beside the request it is waiting on. Offers carry theirs in
// Offer.Install.
type Activity struct {
	ID      string           `json:"id"`
	Name    string           `json:"name"`
	Started string           `json:"started"`
	Install *InstallProgress `json:"install,omitempty"`
}

// activities holds the direct imports running now.
type activities struct {
	mu  sync.Mutex
	run map[string]*Activity
}

// start records an import and returns its progress reporter and the
// function that forgets it.
func (a *activities) start(name, started string) (report func(InstallProgress), done func()) {
	act := &Activity{ID: core.NewID(), Name: name, Started: started}
	a.mu.Lock()
	if a.run == nil {
		a.run = map[string]*Activity{}
	}
	a.run[act.ID] = act
	a.mu.Unlock()
	report = func(p InstallProgress) {
		a.mu.Lock()
		if cur, ok := a.run[act.ID]; ok {
			cur.Install = &p
		}
		a.mu.Unlock()
	}
	done = func() {
		a.mu.Lock()
		delete(a.run, act.ID)
		a.mu.Unlock()
	}
	return report, done
}

// list returns copies of the running imports, oldest first.
func (a *activities) list() []Activity {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Activity, 0, len(a.run))
	for _, act := range a.run {
		c := *act
		if act.Install != nil {
			p := *act.Install
			c.Install = &p
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Started < out[j].Started || (out[i].Started == out[j].Started && out[i].ID < out[j].ID)
	})
	return out
}

// Running lists the imports the host console asked for directly that are
// still running, with their progress (GET /host/api/imports).
func (m *Manager) Running() []Activity { return m.running.list() }

// offerProgress reports an accepted offer's install progress on the offer.
func (m *Manager) offerProgress(id string) func(InstallProgress) {
	return func(p InstallProgress) {
		m.update(id, func(st *offerState) {
			if st.Status == StatusDownloading { // never revive a settled offer
				st.Install = &p
			}
		})
	}
}
