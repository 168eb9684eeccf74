package kernel

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"slices"
	"sync"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
)

// PassHash is the hash a pass is kept as.
func PassHash(pass string) string {
	sum := sha256.Sum256([]byte("pass:" + pass))
	return hex.EncodeToString(sum[:])
}

// sameSecret compares a credential with a secret in constant time (both
// hashed first, so the length of neither shows).
func sameSecret(given, secret string) bool {
	if secret == "" {
		return false
	}
	a := sha256.Sum256([]byte(given))
	b := sha256.Sum256([]byte(secret))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// access holds the join key in memory, loaded once from the store, so
// that checking a request reads no database.
type access struct {
	loadMu sync.Mutex // one first read at a time
	Mu     sync.RWMutex
	loaded bool
	State  core.JoinAccess

	// used is when each pass (by hash) was last presented, for the rule
	// that a full table never forgets a pass in use. Kept in memory: when
	// the state is loaded every pass counts as used then.
	usedMu sync.Mutex
	used   map[string]time.Time
	// mints bounds minting per address (PassMintBurst, PassMintEvery).
	mints *chat.Budget
	// Spectators are the addresses the game master made spectators while
	// they held no pass (with the join key off): every request and
	// connection from there is a spectator's until the game master
	// changes it. In memory only.
	Spectators map[string]bool
}

// Admit checks a credential. With the key off everything is admitted (Open).
func (a *access) Admit(credential string) (core.Grant, bool) {
	a.Mu.RLock()
	defer a.Mu.RUnlock()
	st := &a.State
	if !st.Enabled {
		return core.Grant{Role: core.ClientPlayer, Open: true}, true
	}
	if credential == "" {
		return core.Grant{}, false
	}
	// Every comparison runs, whichever matches, so the time taken does not
	// say which secret it was.
	player := sameSecret(credential, st.Key)
	spectator := sameSecret(credential, st.SpectatorKey)
	h := PassHash(credential)
	var pass *core.JoinPass
	for i := range st.Passes {
		if subtle.ConstantTimeCompare([]byte(h), []byte(st.Passes[i].Hash)) == 1 {
			pass = &st.Passes[i]
		}
	}
	switch {
	case player:
		return core.Grant{Role: core.ClientPlayer, KeyGeneration: st.KeyGeneration}, true
	case spectator:
		return core.Grant{Role: core.ClientSpectator, KeyGeneration: st.KeyGeneration}, true
	case pass != nil:
		return core.Grant{Role: pass.Role, Pass: pass.Hash}, true
	}
	return core.Grant{}, false
}

// MarkUsed records that a pass was presented now (at most once a minute
// per pass is written).
func (a *access) MarkUsed(hash string, now time.Time) {
	if hash == "" {
		return
	}
	a.usedMu.Lock()
	defer a.usedMu.Unlock()
	if a.used == nil {
		a.used = map[string]time.Time{}
	}
	if last, ok := a.used[hash]; !ok || now.Sub(last) > time.Minute {
		a.used[hash] = now
	}
}

// InUse reports whether a pass was minted or presented within PassInUse.
func (a *access) InUse(p core.JoinPass, now time.Time) bool {
	if now.Sub(p.Created) < core.PassInUse {
		return true
	}
	a.usedMu.Lock()
	defer a.usedMu.Unlock()
	last, ok := a.used[p.Hash]
	return ok && now.Sub(last) < core.PassInUse
}

// StillAdmitted reports whether a grant made earlier still holds: with
// the key off, always; else its pass is still kept, or it was the key of
// the current generation. A grant made while the key was off does not
// hold once it is on.
func (a *access) StillAdmitted(g core.Grant) bool {
	a.Mu.RLock()
	defer a.Mu.RUnlock()
	st := &a.State
	switch {
	case !st.Enabled:
		return true
	case g.Open:
		return false
	case g.Pass != "":
		return slices.ContainsFunc(st.Passes, func(p core.JoinPass) bool { return p.Hash == g.Pass })
	}
	return g.KeyGeneration == st.KeyGeneration
}

// enabled reports whether the join key is on.
func (a *access) enabled() bool {
	a.Mu.RLock()
	defer a.Mu.RUnlock()
	return a.State.Enabled
}

func (a *access) Status() core.JoinStatus {
	a.Mu.RLock()
	defer a.Mu.RUnlock()
	st := a.State
	return core.JoinStatus{Enabled: st.Enabled, Key: st.Key, SpectatorKey: st.SpectatorKey, Passes: len(st.Passes)}
}
