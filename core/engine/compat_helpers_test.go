package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core"
)

// wantJSON pins the exact JSON of v: the payload shapes the real web
// client reads (docs/client-compatibility.md).
func wantJSON(t *testing.T, what string, v any, want string) {
	t.Helper()
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(want)); err != nil {
		t.Fatalf("%s: bad expected JSON: %v", what, err)
	}
	if string(got) != compact.String() {
		t.Fatalf("%s:\n got %s\nwant %s", what, got, compact.String())
	}
}

// updateStore runs fn in one write transaction of the fixture's store.
func (f *liveFixture) updateStore(t *testing.T, fn func(tx core.Tx) error) {
	t.Helper()
	if err := f.store.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// seeCompatMap turns line of sight on for the fixture's map, gives the free
// and hidden tokens vision and adds a light, then puts the map on the
// player screen.
func (f *liveFixture) seeCompatMap(t *testing.T) {
	t.Helper()
	f.updateStore(t, func(tx core.Tx) error {
		m, err := tx.Map(liveMapID)
		if err != nil {
			return err
		}
		m.LineOfSight, m.Width, m.Height = true, 400, 200
		m.Lights = []core.Light{{ID: "l-1", Enabled: true, X: 50, Y: 50, RadiusMax: 40}, {ID: "l-off", X: 60, Y: 60}}
		for _, tok := range m.Tokens {
			if tok.ID == liveTokenID || tok.ID == liveHiddenID {
				tok.Vision = &core.Vision{ID: "v-" + tok.ID, Enabled: true}
				tok.X, tok.Y, tok.Role = 50, 50, core.RoleFriendly // the party's: players receive its sight
			}
		}
		return tx.PutMap(m)
	})
	if _, err := f.svc.ShowMap(context.Background(), liveMapID); err != nil {
		t.Fatal(err)
	}
	f.events.take()
}
