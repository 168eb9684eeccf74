package core

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
	"time"
)

// The join key. Off by default: the public listener then has no
// authentication, as contract section 5 describes. When the game master
// turns it on, every request on the public listener must carry a
// credential:
//
//   - the player key or the spectator key (what the QR code and the printed
//     links carry), given by a tool as a header or query parameter; or
//   - a pass: a browser that opened a link with a key is given a pass of
//     its own (a cookie), so the key leaves the address bar and each device
//     can be shut out alone.
//
// Why passes: a key is shared by everyone at the table, so the only way to
// keep a kicked player out is a key they do not know. Kicking therefore
// draws new keys (new links) and revokes the kicked device's pass; every
// other device keeps its pass and stays. Drawing new keys on purpose (the
// game master's "new key") revokes every pass: everyone comes back through
// the new link. Keys and passes are compared in constant time, never
// logged, and passes are kept as hashes only.

// JoinAccess is the join key's stored state.
type JoinAccess struct {
	Enabled      bool   `json:"enabled"`
	Key          string `json:"key,omitempty"`
	SpectatorKey string `json:"spectatorKey,omitempty"`
	// KeyGeneration counts the keys drawn: a connection admitted by a key
	// of an older generation is dropped.
	KeyGeneration int        `json:"keyGeneration"`
	Passes        []JoinPass `json:"passes,omitempty"`
}

// JoinPass is one device's pass, kept as a hash.
type JoinPass struct {
	Hash    string    `json:"hash"`
	Role    string    `json:"role"`
	Created time.Time `json:"created"`
}

// JoinStatus is the join key as the game master reads it (the host
// console): whether it is on, the two keys, and how many devices hold a
// pass.
type JoinStatus struct {
	Enabled      bool   `json:"enabled"`
	Key          string `json:"key,omitempty"`
	SpectatorKey string `json:"spectatorKey,omitempty"`
	Passes       int    `json:"passes"`
}

// Grant is what a credential admitted: a role, and the pass (its hash) or
// the generation of the key it was. Open marks a request admitted while
// the key was off.
type Grant struct {
	Role          string
	Pass          string
	KeyGeneration int
	Open          bool
}

// MaxJoinPasses bounds the passes kept: past it the oldest is forgotten
// (its device opens the link again).
const MaxJoinPasses = 500

// newJoinKey draws a key for links: 20 random bytes in lower-case base32
// (32 letters and digits, easy to read aloud and to type on a phone).
func newJoinKey() string {
	return strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString(randomBytes(20)), "="))
}

// passHash is the hash a pass is kept as.
func passHash(pass string) string {
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
	mu     sync.RWMutex
	loaded bool
	state  JoinAccess
}

// admit checks a credential. With the key off everything is admitted (Open).
func (a *access) admit(credential string) (Grant, bool) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	st := &a.state
	if !st.Enabled {
		return Grant{Role: ClientPlayer, Open: true}, true
	}
	if credential == "" {
		return Grant{}, false
	}
	// Every comparison runs, whichever matches, so the time taken does not
	// say which secret it was.
	player := sameSecret(credential, st.Key)
	spectator := sameSecret(credential, st.SpectatorKey)
	h := passHash(credential)
	var pass *JoinPass
	for i := range st.Passes {
		if subtle.ConstantTimeCompare([]byte(h), []byte(st.Passes[i].Hash)) == 1 {
			pass = &st.Passes[i]
		}
	}
	switch {
	case player:
		return Grant{Role: ClientPlayer, KeyGeneration: st.KeyGeneration}, true
	case spectator:
		return Grant{Role: ClientSpectator, KeyGeneration: st.KeyGeneration}, true
	case pass != nil:
		return Grant{Role: pass.Role, Pass: pass.Hash}, true
	}
	return Grant{}, false
}

// stillAdmitted reports whether a grant made earlier still holds: with
// the key off, always; else its pass is still kept, or it was the key of
// the current generation. A grant made while the key was off does not
// hold once it is on.
func (a *access) stillAdmitted(g Grant) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	st := &a.state
	switch {
	case !st.Enabled:
		return true
	case g.Open:
		return false
	case g.Pass != "":
		return slices.ContainsFunc(st.Passes, func(p JoinPass) bool { return p.Hash == g.Pass })
	}
	return g.KeyGeneration == st.KeyGeneration
}

// enabled reports whether the join key is on.
func (a *access) enabled() bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.state.Enabled
}

func (a *access) status() JoinStatus {
	a.mu.RLock()
	defer a.mu.RUnlock()
	st := a.state
	return JoinStatus{Enabled: st.Enabled, Key: st.Key, SpectatorKey: st.SpectatorKey, Passes: len(st.Passes)}
}

// drawKeys gives st new keys of a new generation.
func (st *JoinAccess) drawKeys() {
	st.Key, st.SpectatorKey = newJoinKey(), newJoinKey()
	st.KeyGeneration++
}

// addPass keeps a new pass, forgetting the oldest past MaxJoinPasses.
func (st *JoinAccess) addPass(p JoinPass) {
	st.Passes = append(st.Passes, p)
	if over := len(st.Passes) - MaxJoinPasses; over > 0 {
		st.Passes = append([]JoinPass(nil), st.Passes[over:]...)
	}
}

// revoke forgets a pass.
func (st *JoinAccess) revoke(hash string) {
	st.Passes = slices.DeleteFunc(st.Passes, func(p JoinPass) bool { return p.Hash == hash })
}

// clone copies st deeply enough to change it on the side.
func (st JoinAccess) clone() JoinAccess {
	st.Passes = slices.Clone(st.Passes)
	return st
}
