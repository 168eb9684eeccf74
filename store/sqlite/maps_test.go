package sqlite

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

func TestMapRoundTripWithTokens(t *testing.T) {
	s := newStore(t)
	m := testMap("map1", "c1", "t2", "t1")
	m.Walls = []core.Wall{{ID: "w1", Data: []float64{0, 0, 70, 0}, Type: core.WallDoor, Door: core.DoorClosed}}
	m.Lights = []core.Light{{ID: "l1", Enabled: true, RadiusMax: 20, Color: "#ffcc00", Sight: core.Object{"a": 1.0}}}
	m.Drawings = []core.Object{{"id": "d1", "points": []any{1.0, 2.0}}}
	m.Data = core.Object{"weather": "rain"}
	entityID := "e1"
	m.Tokens[0].EntityID = &entityID
	m.Tokens[0].Vision = &core.Vision{ID: "v", Enabled: true, LightRadiusMax: 30}
	put(t, s, m)

	if m.Revision != 1 {
		t.Fatalf("PutMap set Revision %d, want 1", m.Revision)
	}
	for _, tok := range m.Tokens {
		if tok.MapID != "map1" || tok.Revision != 1 {
			t.Fatalf("PutMap did not set token %s's MapID/Revision: %q %d", tok.ID, tok.MapID, tok.Revision)
		}
	}
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Map("map1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, m) {
			t.Fatalf("map %+v\nwant %+v", got, m)
		}
		_, err = tx.Map("nope")
		wantNotFound(t, err, "no map with id 'nope'")
		return nil
	})
	// The map document itself does not carry the tokens.
	var doc string
	s.writer.QueryRow("SELECT doc FROM maps WHERE id = 'map1'").Scan(&doc)
	if want := `"tokens":null`; !strings.Contains(doc, want) {
		t.Fatalf("map document %s should hold %s: tokens are rows", doc, want)
	}
}

func TestPutMapUpsertsTokensAndKeepsOthers(t *testing.T) {
	s := newStore(t)
	m := testMap("map1", "c1", "t1", "t2")
	put(t, s, m)
	put(t, s, testToken("t3", "map1")) // added on its own
	m.Tokens = []*core.Token{m.Tokens[1]}
	m.Tokens[0].X = 999
	m.Name = "Renamed"
	put(t, s, m)
	if m.Revision != 2 || m.Tokens[0].Revision != 2 {
		t.Fatalf("second PutMap: map revision %d, token revision %d; want 2 and 2", m.Revision, m.Tokens[0].Revision)
	}
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Map("map1")
		if err != nil {
			return err
		}
		if got.Name != "Renamed" {
			t.Fatalf("name %q", got.Name)
		}
		if ids := tokenIDs(got.Tokens); !reflect.DeepEqual(ids, []string{"t1", "t2", "t3"}) {
			t.Fatalf("tokens %v, want t1 t2 t3 (first-stored order, none removed)", ids)
		}
		if got.Tokens[1].X != 999 {
			t.Fatalf("t2 not replaced: x=%v", got.Tokens[1].X)
		}
		return nil
	})
}

func TestPutMapRejectsBadTokens(t *testing.T) {
	s := newStore(t)
	m := testMap("map1", "c1")
	m.Tokens = []*core.Token{testToken("t1", ""), nil}
	err := s.Update(bg, func(tx core.Tx) error { return tx.PutMap(m) })
	wantKind(t, err, core.KindInvalid, "token 2 is null")
	m.Tokens = []*core.Token{{Name: "no id"}}
	err = s.Update(bg, func(tx core.Tx) error { return tx.PutMap(m) })
	wantKind(t, err, core.KindInvalid, "token 1 has no id")
	if n := countRows(t, s, "maps"); n != 0 {
		t.Fatalf("a refused PutMap left %d maps", n)
	}
}

func TestMapsOfOwner(t *testing.T) {
	s := newStore(t)
	b := testMap("b", "c1", "tb1")
	a := testMap("a", "c1", "ta1", "ta2")
	ranked := testMap("r", "c1")
	ranked.Rank = -1
	other := testMap("o", "m1", "to1")
	put(t, s, b, a, ranked, other)
	view(t, s, func(tx core.Tx) error {
		list, err := tx.Maps("c1")
		if err != nil {
			return err
		}
		got := map[string][]string{}
		order := []string{}
		for _, m := range list {
			order = append(order, m.ID)
			got[m.ID] = tokenIDs(m.Tokens)
			if m.Owner != "c1" || m.Revision != 1 {
				t.Fatalf("map %s lost its columns", m.ID)
			}
		}
		if want := []string{"r", "a", "b"}; !reflect.DeepEqual(order, want) {
			t.Fatalf("Maps(c1) order %v, want %v (rank, name, id)", order, want)
		}
		want := map[string][]string{"a": {"ta1", "ta2"}, "b": {"tb1"}, "r": {}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Maps(c1) tokens %v, want %v", got, want)
		}
		all, err := tx.Maps("")
		if err != nil {
			return err
		}
		tokens := 0
		for _, m := range all {
			tokens += len(m.Tokens)
		}
		if len(all) != 4 || tokens != 4 {
			t.Fatalf("Maps(\"\") returned %d maps with %d tokens, want 4 and 4", len(all), tokens)
		}
		none, err := tx.Maps("nobody")
		if err != nil || none == nil || len(none) != 0 {
			t.Fatalf("Maps(nobody) = %v, %v; want an empty slice", none, err)
		}
		return nil
	})
}

func TestTokens(t *testing.T) {
	s := newStore(t)
	put(t, s, testMap("map1", "c1"), testMap("map2", "c1"))
	t1 := testToken("t1", "map1")
	t1.Path = []any{1.0, 2.0}
	put(t, s, t1, testToken("t2", "map1"))
	if t1.Revision != 1 {
		t.Fatalf("PutToken set Revision %d", t1.Revision)
	}
	t1.X = 210
	put(t, s, t1)
	if t1.Revision != 2 {
		t.Fatalf("second PutToken set Revision %d", t1.Revision)
	}
	view(t, s, func(tx core.Tx) error {
		got, err := tx.Token("t1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, t1) {
			t.Fatalf("token %+v\nwant %+v", got, t1)
		}
		list, err := tx.Tokens("map1")
		if err != nil {
			return err
		}
		if ids := tokenIDs(list); !reflect.DeepEqual(ids, []string{"t1", "t2"}) {
			t.Fatalf("Tokens(map1) = %v", ids)
		}
		list, err = tx.Tokens("map2")
		if err != nil || list == nil || len(list) != 0 {
			t.Fatalf("Tokens(map2) = %v, %v; want an empty slice", list, err)
		}
		_, err = tx.Tokens("nope")
		wantNotFound(t, err, "no map with id 'nope'")
		_, err = tx.Token("nope")
		wantNotFound(t, err, "no token with id 'nope'")
		return nil
	})

	// A token can move to another map.
	t1.MapID = "map2"
	put(t, s, t1)
	view(t, s, func(tx core.Tx) error {
		list, _ := tx.Tokens("map2")
		if ids := tokenIDs(list); !reflect.DeepEqual(ids, []string{"t1"}) {
			t.Fatalf("Tokens(map2) after the move = %v", ids)
		}
		return nil
	})

	err := s.Update(bg, func(tx core.Tx) error { return tx.PutToken(testToken("t9", "nope")) })
	wantNotFound(t, err, "no map with id 'nope'")
	err = s.Update(bg, func(tx core.Tx) error { return tx.PutToken(testToken("t9", "")) })
	wantKind(t, err, core.KindInvalid, "map id is required")

	update(t, s, func(tx core.Tx) error { return tx.DeleteToken("t1") })
	err = s.Update(bg, func(tx core.Tx) error { return tx.DeleteToken("t1") })
	wantNotFound(t, err, "no token with id 't1'")
}

func TestDeleteMapDeletesItsTokens(t *testing.T) {
	s := newStore(t)
	put(t, s, testMap("map1", "c1", "t1", "t2"), testMap("map2", "c1", "t3"))
	update(t, s, func(tx core.Tx) error { return tx.DeleteMap("map1") })
	if n := countRows(t, s, "tokens"); n != 1 {
		t.Fatalf("%d tokens left, want only map2's", n)
	}
	err := s.Update(bg, func(tx core.Tx) error { return tx.DeleteMap("map1") })
	wantNotFound(t, err, "no map with id 'map1'")
}

func tokenIDs(list []*core.Token) []string {
	out := []string{}
	for _, t := range list {
		out = append(out, t.ID)
	}
	return out
}
