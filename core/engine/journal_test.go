package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// The handout journal: what the game master shows (a section, a picture,
// a text handout) stays in players' journals in the order shown, after
// it left the screen; showing one again moves it to the end; an entry
// taken back leaves players' journals (journalUpdated without it) and its
// page can no longer be opened, until it is shown again.
func TestTheJournalKeepsWhatWasShown(t *testing.T) {
	f := newLibraryFixture(t)
	players := f.svc.PlayerAs(core.Actor{Role: core.ClientPlayer})
	titles := func() string {
		t.Helper()
		j, err := players.Journal(svcCtx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range j.Entries {
			out = append(out, e.Kind+":"+e.Title)
		}
		return strings.Join(out, ", ")
	}
	if got := titles(); got != "" {
		t.Fatalf("a new journal: %s", got)
	}
	if _, err := f.svc.ShowPage(svcCtx, libIntro, core.ShowPage{Section: "boxed"}); err != nil {
		t.Fatal(err)
	}
	img := "/campaigns/x/old-map.png"
	if _, err := f.svc.SetOverlay(svcCtx, core.ScreenOverlay{Image: &img}); err != nil {
		t.Fatal(err)
	}
	text, empty := "# A letter\nMeet me at dawn.", ""
	if _, err := f.svc.SetOverlay(svcCtx, core.ScreenOverlay{Image: &empty, Text: &text}); err != nil {
		t.Fatal(err)
	}
	// Closing the overlay keeps the journal.
	if _, err := f.svc.SetOverlay(svcCtx, core.ScreenOverlay{Image: &empty, Text: &empty}); err != nil {
		t.Fatal(err)
	}
	if got, want := titles(), "page:Introduction — Read aloud, image:old map, handout:A letter"; got != want {
		t.Fatalf("the journal: %s, want %s", got, want)
	}
	host, _ := f.svc.HostJournal(svcCtx)
	page := host.Entries[0]
	if page.URL != "/module/marsh-bats/page/introduction#boxed" || page.PageID != libIntro {
		t.Fatalf("the page's entry: %+v", page)
	}
	// Taken back: gone from players' journals, live; its page closed.
	f.rec.reset()
	if _, err := f.svc.RevokeJournal(svcCtx, page.ID); err != nil {
		t.Fatal(err)
	}
	if got := f.rec.names(); len(got) != 1 || got[0] != "journalUpdated" {
		t.Fatalf("a revoke published %v", got)
	}
	if got := titles(); got != "image:old map, handout:A letter" {
		t.Fatalf("after the revoke: %s", got)
	}
	if _, err := f.svc.Players().PageAt(svcCtx, core.PageAddress{Page: "introduction"}); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("a revoked page still opens: %v", err)
	}
	if host, _ := f.svc.HostJournal(svcCtx); len(host.Entries) != 3 || !host.Entries[0].Revoked {
		t.Fatalf("the host's journal keeps the revoked entry: %+v", host.Entries)
	}
	// Shown again: back, at the end, and the page opens.
	if _, err := f.svc.ShowJournal(svcCtx, page.ID); err != nil {
		t.Fatal(err)
	}
	if got := titles(); got != "image:old map, handout:A letter, page:Introduction — Read aloud" {
		t.Fatalf("after showing it again: %s", got)
	}
	if _, err := f.svc.Players().PageAt(svcCtx, core.PageAddress{Page: "introduction"}); err != nil {
		t.Fatalf("a page shown again: %v", err)
	}
	// Hiding the page takes its entries back too.
	if _, err := f.svc.HidePage(svcCtx, libIntro); err != nil {
		t.Fatal(err)
	}
	if got := titles(); got != "image:old map, handout:A letter" {
		t.Fatalf("after hiding the page: %s", got)
	}
	if _, err := f.svc.RevokeJournal(svcCtx, "nope"); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("revoking no entry: %v", err)
	}
}

// A journal keeps its newest MaxJournalEntries: the entry shown longest
// ago leaves first.
func TestTheJournalKeepsItsNewestEntries(t *testing.T) {
	f := newLibraryFixture(t)
	for i := range core.MaxJournalEntries + 2 {
		img := fmt.Sprintf("/campaigns/x/picture-%d.png", i)
		if _, err := f.svc.SetOverlay(svcCtx, core.ScreenOverlay{Image: &img}); err != nil {
			t.Fatal(err)
		}
	}
	j, err := f.svc.HostJournal(svcCtx)
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Entries) != core.MaxJournalEntries || j.Entries[0].URL != "/campaigns/x/picture-2.png" ||
		j.Entries[len(j.Entries)-1].URL != fmt.Sprintf("/campaigns/x/picture-%d.png", core.MaxJournalEntries+1) {
		t.Fatalf("the journal holds %d entries, from %s", len(j.Entries), j.Entries[0].URL)
	}
}
