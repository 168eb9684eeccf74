package core

import (
	"encoding/base32"
	"slices"
	"strings"
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

// DrawKeys gives st new keys of a new generation.
func (st *JoinAccess) DrawKeys() {
	st.Key, st.SpectatorKey = newJoinKey(), newJoinKey()
	st.KeyGeneration++
}

// AddPass keeps a new pass. An address past MaxPassesPerAddress loses its
// own oldest; a full table forgets its oldest pass not in use, and when
// every pass is in use the new one is refused: no device loses its pass
// to another's.
func (st *JoinAccess) AddPass(p JoinPass, inUse func(JoinPass) bool) error {
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

// Pass returns the pass with hash, nil when none.
func (st *JoinAccess) Pass(hash string) *JoinPass {
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

// DevicePasses lists the hashes of the passes of one device: the pass it
// presented, those of the same device, and those minted from its address
// (or from the address its pass was minted from). address is an
// AddressKey ("" for none).
func (st *JoinAccess) DevicePasses(hash, address string) []string {
	device, addresses := "", map[string]bool{}
	if address != "" {
		addresses[address] = true
	}
	if p := st.Pass(hash); p != nil {
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

// Revoke forgets a pass.
func (st *JoinAccess) Revoke(hash string) {
	st.Passes = slices.DeleteFunc(st.Passes, func(p JoinPass) bool { return p.Hash == hash })
}

// Clone copies st deeply enough to change it on the side.
func (st JoinAccess) Clone() JoinAccess {
	st.Passes = slices.Clone(st.Passes)
	return st
}
