package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// bg is the context of tests that do not cancel.
var bg = context.Background()

// newStore opens a fresh database in a temporary folder, closed at the end
// of the test.
func newStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// update runs fn in Update and fails the test on error.
func update(t testing.TB, s *Store, fn func(tx core.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

// view runs fn in View and fails the test on error.
func view(t testing.TB, s *Store, fn func(tx core.Tx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// put stores the objects in one Update.
func put(t testing.TB, s *Store, objects ...any) {
	t.Helper()
	update(t, s, func(tx core.Tx) error {
		for _, o := range objects {
			var err error
			switch o := o.(type) {
			case *core.Module:
				err = tx.PutModule(o)
			case *core.Campaign:
				err = tx.PutCampaign(o)
			case *core.Entity:
				err = tx.PutEntity(o)
			case *core.Combatant:
				err = tx.PutCombatant(o)
			case *core.Map:
				err = tx.PutMap(o)
			case *core.Token:
				err = tx.PutToken(o)
			case *core.Message:
				err = tx.AddMessage(o)
			case *core.Page:
				err = tx.PutPage(o)
			case *core.Encounter:
				err = tx.PutEncounter(o)
			case *core.Group:
				err = tx.PutGroup(o)
			case *core.Asset:
				err = tx.PutAsset(o)
			default:
				t.Fatalf("put: unexpected %T", o)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// wantNotFound checks that err is a not-found error whose message contains
// every part.
func wantNotFound(t testing.TB, err error, parts ...string) {
	t.Helper()
	wantKind(t, err, core.KindNotFound, parts...)
}

func wantKind(t testing.TB, err error, kind core.ErrorKind, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want a %s error", kind)
	}
	if got := core.KindOf(err); got != kind {
		t.Fatalf("error %q is %s, want %s", err, got, kind)
	}
	for _, p := range parts {
		if !strings.Contains(errorText(err), p) {
			t.Fatalf("error %q does not mention %q", errorText(err), p)
		}
	}
}

// errorText is the message of err followed by its causes: internal errors
// show only "internal error" and keep the detail in the wrapped cause.
func errorText(err error) string {
	text := err.Error()
	for cause := errors.Unwrap(err); cause != nil; cause = errors.Unwrap(cause) {
		text += ": " + cause.Error()
	}
	return text
}

// countRows returns the number of rows of table, read on the writer.
func countRows(t testing.TB, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.writer.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

var testTime = time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC)

func testModule(id string) *core.Module {
	return &core.Module{ID: id, System: "dnd5e", Name: "Module " + id, Slug: "module-" + id,
		Version: "1.0.0", Tags: []string{"srd"}, Attributes: core.Object{}}
}

func testCampaign(id string) *core.Campaign {
	return &core.Campaign{ID: id, System: "dnd5e", Name: "Campaign " + id, Slug: "campaign-" + id,
		Tags: []string{}, References: []string{}, Attributes: core.Object{}}
}

func testEntity(id, kind, name, owner string) *core.Entity {
	e := &core.Entity{ID: id, Kind: kind, System: "dnd5e", Name: name, Owner: owner,
		Data: core.Object{"hp": 7.0, "abilities": core.Object{"str": 8.0}}}
	if err := e.Normalize(testTime); err != nil {
		panic(err)
	}
	return e
}

func testMap(id, owner string, tokenIDs ...string) *core.Map {
	m := &core.Map{ID: id, Name: "Map " + id, Owner: owner}
	if err := m.Normalize(); err != nil {
		panic(err)
	}
	for _, tid := range tokenIDs {
		m.Tokens = append(m.Tokens, testToken(tid, ""))
	}
	return m
}

func testToken(id, mapID string) *core.Token {
	tok := &core.Token{ID: id, Name: "Token " + id, X: 70, Y: 140, MapID: mapID}
	tok.Normalize()
	return tok
}

func testCombatant(id, campaign, entityID string, rank int) *core.Combatant {
	c := &core.Combatant{ID: id, Name: "Combatant " + id, Campaign: campaign, EntityID: entityID, Rank: rank}
	c.Normalize()
	return c
}

func testMessage(id, campaign, text string) *core.Message {
	return &core.Message{ID: id, Type: core.MessageChat, Campaign: campaign, Text: text, Created: testTime}
}
