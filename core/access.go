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
// draws new keys (new links) and revokes every pass of the kicked device;
// every other device keeps its pass and stays. Drawing new keys on purpose
// (the game master's "new key") revokes every pass: everyone comes back
// through the new link. Keys and passes are compared in constant time,
// never logged, and passes are kept as hashes only.
//
// A pass is bound to the device that minted it: the address it came from
// (loopback, this machine, is no device of the table and is not recorded)
// and the device of the pass the browser already held, if any. A kick
// revokes them all, so a device that minted spare passes from the link
// before it was kicked has none left (kick.go). Minting is bounded per
// address (a burst, then one a minute), one address keeps at most
// MaxPassesPerAddress, and a full table never makes room by forgetting a
// pass another device still uses: one device cannot evict the others.
//
// The role of a pass is the game master's to change (a spectator, or a
// player again); it holds on every path that pass opens, HTTP and the
// WebSocket alike, across reconnections, until the game master changes it.

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
	// Address is where it was minted from (AddressKey: "" for this
	// machine); Device names the device (a pass minted by a browser that
	// held another takes that one's device). A kick revokes every pass of
	// the kicked device's address and device.
	Address string `json:"address,omitempty"`
	Device  string `json:"device,omitempty"`
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

// Limits of passes.
const (
	// MaxJoinPasses bounds the passes kept. Past it the oldest one no
	// device has used for PassInUse is forgotten (its device opens the
	// link again); when every one is in use, no pass is minted.
	MaxJoinPasses = 500
	// MaxPassesPerAddress bounds the passes minted from one address: past
	// it that address's own oldest is forgotten.
	MaxPassesPerAddress = 20
	// PassInUse is how recently a pass must have been minted or presented
	// to count as in use.
	PassInUse = 24 * time.Hour
	// PassMintBurst passes may be minted from one address at once, then
	// one each PassMintEvery.
	PassMintBurst = 10
	PassMintEvery = time.Minute
)

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

	// used is when each pass (by hash) was last presented, for the rule
	// that a full table never forgets a pass in use. Kept in memory: when
	// the state is loaded every pass counts as used then.
	usedMu sync.Mutex
	used   map[string]time.Time
	// mints bounds minting per address (PassMintBurst, PassMintEvery).
	mints *budget
	// spectators are the addresses the game master made spectators while
	// they held no pass (with the join key off): every request and
	// connection from there is a spectator's until the game master
	// changes it. In memory only.
	spectators map[string]bool
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

// markUsed records that a pass was presented now (at most once a minute
// per pass is written).
func (a *access) markUsed(hash string, now time.Time) {
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

// inUse reports whether a pass was minted or presented within PassInUse.
func (a *access) inUse(p JoinPass, now time.Time) bool {
	if now.Sub(p.Created) < PassInUse {
		return true
	}
	a.usedMu.Lock()
	defer a.usedMu.Unlock()
	last, ok := a.used[p.Hash]
	return ok && now.Sub(last) < PassInUse
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

// addPass keeps a new pass. An address past MaxPassesPerAddress loses its
// own oldest; a full table forgets its oldest pass not in use, and when
// every pass is in use the new one is refused: no device loses its pass
// to another's.
func (st *JoinAccess) addPass(p JoinPass, inUse func(JoinPass) bool) error {
	if p.Address != "" {
		own := 0
		for _, q := range st.Passes {
			if q.Address == p.Address {
				own++
			}
		}
		for i := 0; own >= MaxPassesPerAddress && i < len(st.Passes); {
			if st.Passes[i].Address == p.Address {
				st.Passes = slices.Delete(st.Passes, i, i+1)
				own--
				continue
			}
			i++
		}
	}
	if len(st.Passes) >= MaxJoinPasses {
		i := slices.IndexFunc(st.Passes, func(q JoinPass) bool { return !inUse(q) })
		if i < 0 {
			return RateLimitedf("this game keeps passes for %d devices and every one is in use: ask the game master to draw new keys", MaxJoinPasses)
		}
		st.Passes = slices.Delete(st.Passes, i, i+1)
	}
	st.Passes = append(st.Passes, p)
	return nil
}

// pass returns the pass with hash, nil when none.
func (st *JoinAccess) pass(hash string) *JoinPass {
	if hash == "" {
		return nil
	}
	for i := range st.Passes {
		if st.Passes[i].Hash == hash {
			return &st.Passes[i]
		}
	}
	return nil
}

// devicePasses lists the hashes of the passes of one device: the pass it
// presented, those of the same device, and those minted from its address
// (or from the address its pass was minted from). address is an
// AddressKey ("" for none).
func (st *JoinAccess) devicePasses(hash, address string) []string {
	device, addresses := "", map[string]bool{}
	if address != "" {
		addresses[address] = true
	}
	if p := st.pass(hash); p != nil {
		device = p.Device
		if p.Address != "" {
			addresses[p.Address] = true
		}
	}
	var out []string
	for _, p := range st.Passes {
		if p.Hash == hash || device != "" && p.Device == device || addresses[p.Address] {
			out = append(out, p.Hash)
		}
	}
	return out
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
