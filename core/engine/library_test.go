package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/pages"
	"github.com/vttapp/companion/core/redact"
)

const (
	libModule = "m0000000-0000-0000-0000-000000000001"
	libChap   = "g-chapter"
	libRooms  = "g-rooms"
	libIntro  = "p-intro"
	libSecret = "p-secret"
	libRoom   = "p-room"
	libMap    = "map-module"
	libFight  = "enc-fight"
)

// newLibraryFixture is the service fixture with a module "Marsh Bats"
// (slug marsh-bats) holding a chapter group, a nested group of rooms, three
// pages (the intro links the secret page, a map, an encounter and a
// monster), a map whose marker opens the room page, and an encounter.
func newLibraryFixture(t *testing.T) *svcFixture {
	t.Helper()
	f := newSvcFixture(t, true)
	x, y := 140.0, 140.0
	err := f.store.Update(svcCtx, func(tx core.Tx) error {
		m := &core.Module{ID: libModule, Name: "Marsh Bats", System: "dnd5e"}
		if err := m.Normalize(); err != nil {
			return err
		}
		if err := tx.PutModule(m); err != nil {
			return err
		}
		for _, g := range []*core.Group{
			{ID: libChap, Name: "Chapter 1", Rank: 1},
			{ID: libRooms, Name: "Rooms", ParentID: libChap, Rank: 5},
			{ID: "g-loop-a", Name: "Loop A", ParentID: "g-loop-b"},
			{ID: "g-loop-b", Name: "Loop B", ParentID: "g-loop-a"},
		} {
			g.Owner = libModule
			g.Normalize()
			if err := tx.PutGroup(g); err != nil {
				return err
			}
		}
		for _, p := range []*core.Page{
			{ID: libIntro, Name: "Introduction", ParentID: libChap, Rank: 0, Content: `<h1>Arrival</h1><p>Read <a href="/page/the-secret">the secret</a>, ` +
				`<a href="/map/bat-cave">the cave</a>, <a href="/encounter/bat-swarm">the fight</a>, <a href="/monster/goblin">a goblin</a>.</p>` +
				`<h2 id="boxed">Read aloud</h2><p>The reeds whisper.</p><h1>Secrets</h1><p>The abbess is a vampire.</p><script>x</script>`},
			{ID: libSecret, Name: "The Secret", Slug: "the-secret", ParentID: libChap, Rank: 2, Format: "markdown", Content: "# Deep\n\nOnly for the **GM**."},
			{ID: libRoom, Name: "Room 1", ParentID: libRooms, Content: "<p>A damp room.</p>"},
			{ID: "p-orphan", Name: "Orphan", ParentID: "g-gone", Content: "<p>x</p>"},
		} {
			p.Owner = libModule
			if err := p.Normalize(); err != nil {
				return err
			}
			if err := tx.PutPage(p); err != nil {
				return err
			}
		}
		mp := &core.Map{ID: libMap, Name: "Bat Cave", Owner: libModule, ParentID: libRooms, Width: 700, Height: 700, GridSize: 70,
			Markers: []core.Object{{"id": "K1", "reference": "/page/room-1", "hidden": true}}}
		mp.Normalize()
		if err := tx.PutMap(mp); err != nil {
			return err
		}
		enc := &core.Encounter{ID: libFight, Name: "Bat Swarm", ParentID: libRooms, Owner: libModule, MapID: libMap,
			Combatants: []core.EncounterCreature{{Reference: "/monster/goblin", Count: 3, Label: "G", X: &x, Y: &y}, {Reference: "/monster/hobgoblin", Name: "Boss"}}}
		if err := enc.Normalize(); err != nil {
			return err
		}
		return tx.PutEncounter(enc)
	})
	if err != nil {
		t.Fatal(err)
	}
	f.rec.reset()
	return f
}

func TestPageNormalizeSanitisesHTMLAndKeepsMarkdown(t *testing.T) {
	p := &core.Page{Name: "A Page", Content: `<p onclick="x()">Hi<script>alert(1)</script></p>`}
	if err := p.Normalize(); err != nil {
		t.Fatal(err)
	}
	if p.Content != "<p>Hi</p>" || p.Slug != "a-page" || p.Format != "html" || p.ID == "" {
		t.Errorf("page %+v", p)
	}
	md := &core.Page{Name: "M", Format: "Markdown", Content: "<b>raw</b> *x*"}
	if err := md.Normalize(); err != nil || md.Content != "<b>raw</b> *x*" || md.Format != "markdown" {
		t.Errorf("markdown page %+v %v", md, err)
	}
	svcWantErr(t, (&core.Page{Name: "x", Format: "pdf"}).Normalize(), core.KindInvalid, "format must be html or markdown")
	svcWantErr(t, (&core.Page{Name: "x", Content: strings.Repeat("a", core.MaxPageBytes+1)}).Normalize(), core.KindTooLarge, "page 'x'")
	svcWantErr(t, (&core.Page{}).Normalize(), core.KindInvalid, "name is required")
}

func TestLibraryTreeNestsGroupsInRankOrder(t *testing.T) {
	f := newLibraryFixture(t)
	lib, err := f.svc.Library(svcCtx, libModule)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(items []*core.LibraryItem, depth int) string
	walk = func(items []*core.LibraryItem, depth int) string {
		var b strings.Builder
		for _, it := range items {
			b.WriteString(strings.Repeat("  ", depth) + it.Type + " " + it.Name + "\n")
			b.WriteString(walk(it.Children, depth+1))
		}
		return b.String()
	}
	want := `group Loop A
group Loop B
page Orphan
group Chapter 1
  page Introduction
  page The Secret
  group Rooms
    map Bat Cave
    encounter Bat Swarm
    page Room 1
`
	if got := walk(lib.Items, 0); got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	if lib.Owner.Kind != "module" || lib.Owner.Slug != "marsh-bats" {
		t.Errorf("owner %+v", lib.Owner)
	}
	intro := lib.Items[3].Children[0]
	if intro.URL != "/module/marsh-bats/page/introduction" || intro.Shown != "" {
		t.Errorf("intro %+v", intro)
	}
	if enc := lib.Items[3].Children[2].Children[1]; enc.Creatures != 4 || enc.MapID != libMap {
		t.Errorf("encounter %+v", enc)
	}
	_, err = f.svc.Library(svcCtx, "nope")
	svcWantErr(t, err, core.KindNotFound, "no module or campaign")
	sums, err := f.svc.Libraries(svcCtx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range sums {
		if s.ID == libModule {
			found = s.Pages == 4 && s.Maps == 1 && s.Encounters == 1 && s.Groups == 4
		}
	}
	if !found {
		t.Errorf("libraries %+v", sums)
	}
}

// Players read a page only once it is shown, and only what was shown;
// the host reads everything. The rule holds for every address form.
func TestPlayersReadOnlyShownPages(t *testing.T) {
	f := newLibraryFixture(t)
	players := f.svc.Players()
	addrs := []core.PageAddress{{Scope: "module", Owner: "marsh-bats", Page: "introduction"}, {Scope: "module", Owner: libModule, Page: libIntro},
		{Page: "introduction"}, {Page: libIntro}}
	for _, a := range addrs {
		if _, err := players.PageAt(svcCtx, a); core.KindOf(err) != core.KindNotFound {
			t.Fatalf("players read %+v before it was shown: %v", a, err)
		}
		v, err := f.svc.PageAt(svcCtx, a)
		if err != nil || !strings.Contains(v.HTML, "The abbess is a vampire") {
			t.Fatalf("host %+v: %v %+v", a, err, v)
		}
	}
	// The host's view: every section, links to library content tagged.
	host, _ := f.svc.PageView(svcCtx, libIntro)
	for _, want := range []string{`<a href="/module/marsh-bats/page/the-secret" data-link="page" data-id="p-secret">the secret</a>`,
		`<a href="/map/bat-cave" data-link="map" data-id="map-module">the cave</a>`, `data-link="encounter" data-id="enc-fight"`, `<a href="/monster/goblin">a goblin</a>`} {
		if !strings.Contains(host.HTML, want) {
			t.Errorf("host view lacks %s:\n%s", want, host.HTML)
		}
	}
	if strings.Contains(host.HTML, "<script") || len(host.Sections) != 3 || len(host.Maps) != 1 || host.Maps[0].ID != libMap || len(host.Encounters) != 1 {
		t.Errorf("host view %+v", host)
	}

	// One section shown: players read it, nothing else.
	shown, err := f.svc.ShowPage(svcCtx, libIntro, core.ShowPage{Section: "boxed"})
	if err != nil {
		t.Fatal(err)
	}
	if shown.Shown != "sections" || shown.ShownSections[0] != "boxed" || shown.Screen == nil || shown.Screen.OverlayType != "handout" {
		t.Fatalf("shown %+v", shown)
	}
	v, err := players.PageAt(svcCtx, addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.HTML, "The reeds whisper") || strings.Contains(v.HTML, "vampire") || strings.Contains(v.HTML, "the secret") || v.Page.Content != "" {
		t.Errorf("players' view of one section: %s", v.HTML)
	}
	if got := f.rec.names(); len(got) != 2 || got[0] != "journalUpdated" || got[1] != "screenUpdated" {
		t.Errorf("events %v", got)
	}
	text := shown.Screen.OverlayHandoutText
	if !strings.Contains(text, "## Read aloud") || !strings.Contains(text, "The reeds whisper.") || strings.Contains(text, "vampire") ||
		!strings.Contains(text, "[Open the page](/module/marsh-bats/page/introduction#boxed)") {
		t.Errorf("handout text:\n%s", text)
	}
	// Another section of it is still unknown to players: not shown, 404.
	if _, err := players.PageAt(svcCtx, core.PageAddress{Page: "the-secret"}); core.KindOf(err) != core.KindNotFound {
		t.Errorf("the secret page: %v", err)
	}

	// The whole page, without the overlay: only the journal is broadcast; links to
	// pages players cannot open, maps and encounters keep their text only.
	f.rec.reset()
	no := false
	if _, err := f.svc.ShowPage(svcCtx, libIntro, core.ShowPage{Overlay: &no}); err != nil {
		t.Fatal(err)
	}
	if got := f.rec.names(); len(got) != 1 || got[0] != "journalUpdated" {
		t.Errorf("a show without overlay broadcast %v", got)
	}
	v, _ = players.PageAt(svcCtx, addrs[2])
	if !strings.Contains(v.HTML, "vampire") || !strings.Contains(v.HTML, "Read the secret, the cave, the fight, <a href=\"/monster/goblin\">a goblin</a>") || strings.Contains(v.HTML, "data-") {
		t.Errorf("players' whole page: %s", v.HTML)
	}
	// Once the secret is shown too, the link leads there.
	f.svc.ShowPage(svcCtx, libSecret, core.ShowPage{Overlay: &no})
	v, _ = players.PageAt(svcCtx, addrs[0])
	if !strings.Contains(v.HTML, `<a href="/module/marsh-bats/page/the-secret">the secret</a>`) {
		t.Errorf("a link to a shown page: %s", v.HTML)
	}

	// Hidden again: 404, and its handout leaves the screen.
	f.svc.ShowPage(svcCtx, libIntro, core.ShowPage{})
	f.rec.reset()
	hidden, err := f.svc.HidePage(svcCtx, libIntro)
	if err != nil || hidden.Screen == nil || hidden.Screen.OverlayType != "" || hidden.Screen.OverlayHandoutText != "" {
		t.Fatalf("hide %+v %v", hidden, err)
	}
	if _, err := players.PageAt(svcCtx, addrs[0]); core.KindOf(err) != core.KindNotFound {
		t.Errorf("a hidden page: %v", err)
	}
	if got := f.rec.names(); len(got) != 2 || got[0] != "journalUpdated" || got[1] != "screenUpdated" {
		t.Errorf("hide events %v", got)
	}

	_, err = f.svc.ShowPage(svcCtx, libIntro, core.ShowPage{Section: "nope"})
	svcWantErr(t, err, core.KindNotFound, "has no section 'nope'")
	_, err = f.svc.ShowPage(svcCtx, "nope", core.ShowPage{})
	svcWantErr(t, err, core.KindNotFound, "no page with id 'nope'")
}

// A page shown in a campaign that is no longer primary is not readable.
func TestPageShowsBelongToThePrimaryCampaign(t *testing.T) {
	f := newLibraryFixture(t)
	no := false
	f.svc.ShowPage(svcCtx, libRoom, core.ShowPage{Overlay: &no})
	a := core.PageAddress{Scope: "module", Owner: "marsh-bats", Page: "room-1"}
	if _, err := f.svc.Players().PageAt(svcCtx, a); err != nil {
		t.Fatal(err)
	}
	f.store.Update(svcCtx, func(tx core.Tx) error {
		c := &core.Campaign{ID: "c-other", System: "dnd5e", Name: "Other", Primary: true}
		c.Normalize()
		return tx.PutCampaign(c)
	})
	if _, err := f.svc.Players().PageAt(svcCtx, a); core.KindOf(err) != core.KindNotFound {
		t.Errorf("another campaign's show opens the page: %v", err)
	}
}

func TestShowPageMapFollowsLinksMarkersAndGroups(t *testing.T) {
	f := newLibraryFixture(t)
	for _, page := range []string{libIntro, libRoom} {
		f.rec.reset()
		screen, err := f.svc.ShowPageMap(svcCtx, page, "")
		if err != nil || screen.MapID != libMap {
			t.Fatalf("%s: %+v %v", page, screen, err)
		}
		if got := f.rec.names(); len(got) < 2 || got[0] != "screenUpdated" || got[1] != "mapLoaded" {
			t.Errorf("events %v", got)
		}
	}
	_, err := f.svc.ShowPageMap(svcCtx, libSecret, "")
	svcWantErr(t, err, core.KindConflict, "leads to no map")
	_, err = f.svc.ShowPageMap(svcCtx, libIntro, svcMap)
	svcWantErr(t, err, core.KindNotFound, "does not lead to map")
}

func TestRunEncounterPlacesTokensAndCombatantsAtOnce(t *testing.T) {
	f := newLibraryFixture(t)
	before, _ := f.svc.HostCampaign(svcCtx)
	run, err := f.svc.RunEncounter(svcCtx, libFight, core.RunEncounter{})
	if err != nil {
		t.Fatal(err)
	}
	if run.MapID != libMap || len(run.Tokens) != 4 || len(run.Combatants) != 4 || len(run.Missing) != 1 || run.Missing[0] != "/monster/hobgoblin" {
		t.Fatalf("run %+v", run)
	}
	// The first goblin where the encounter says, the others on free cells
	// beside it; labels numbered; the boss named by its entry.
	seen := map[[2]float64]bool{}
	for i, tk := range run.Tokens {
		if seen[[2]float64{tk.X, tk.Y}] {
			t.Errorf("two tokens at %v,%v", tk.X, tk.Y)
		}
		seen[[2]float64{tk.X, tk.Y}] = true
		c := run.Combatants[i]
		if c.TokenID == nil || *c.TokenID != tk.ID || c.Name != tk.Name || c.Label != tk.Label {
			t.Errorf("combatant %d %+v does not match token %+v", i, c, tk)
		}
	}
	if tk := run.Tokens[0]; tk.X != 140 || tk.Y != 140 || tk.Label != "G1" || tk.EntityID == nil || *tk.EntityID != svcGoblin {
		t.Errorf("first goblin %+v", tk)
	}
	if tk := run.Tokens[2]; tk.Label != "G3" || tk.X < 70 || tk.X > 280 || tk.Y < 70 || tk.Y > 280 {
		t.Errorf("third goblin %+v", tk)
	}
	if boss := run.Combatants[3]; boss.Name != "Boss" || boss.EntityID != "" || boss.Reference != "/monster/hobgoblin" {
		t.Errorf("boss %+v", boss)
	}
	if c := run.Combatants[0]; c.EntityID != svcGoblin || c.EntityType != "monster" || c.Role != "hostile" {
		t.Errorf("goblin combatant %+v", c)
	}
	// One set of events: the combatants, the tokens, one game.
	names := f.rec.names()
	want := "combatantUpdated combatantUpdated combatantUpdated combatantUpdated tokenUpdated tokenUpdated tokenUpdated tokenUpdated gameUpdated"
	if strings.Join(names, " ") != want {
		t.Errorf("events %v", names)
	}
	after, _ := f.svc.HostCampaign(svcCtx)
	if len(after.Game.Combatants) != len(before.Game.Combatants)+4 {
		t.Errorf("combatants %d -> %d", len(before.Game.Combatants), len(after.Game.Combatants))
	}

	// Hidden, around a point, tokens only, on the map of the player screen.
	f.rec.reset()
	x, y := 35.0, 35.0
	no := false
	run, err = f.svc.RunEncounter(svcCtx, libFight, core.RunEncounter{MapID: svcMap, X: &x, Y: &y, Hidden: true, Combat: &no})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Combatants) != 0 || len(run.Tokens) != 4 || !run.Tokens[0].Hidden {
		t.Fatalf("hidden run %+v", run)
	}
	for _, e := range f.rec.events {
		if e.Name != "tokenUpdated" {
			t.Errorf("event %s", e.Name)
		}
		if players := redact.PlayersView(e.Data); players != nil {
			data, _ := json.Marshal(players)
			t.Errorf("players receive a hidden token: %s", data)
		}
	}
	_, err = f.svc.RunEncounter(svcCtx, "nope", core.RunEncounter{})
	svcWantErr(t, err, core.KindNotFound, "no encounter")
	_, err = f.svc.RunEncounter(svcCtx, libFight, core.RunEncounter{X: &x})
	svcWantErr(t, err, core.KindInvalid, "both 'x' and 'y'")
}

// A second run of an encounter whose creatures still stand on its map is
// refused (most often a double click), unless asked for again; once one
// of them is gone, a run is a new band.
func TestRunEncounterTwiceAsks(t *testing.T) {
	f := newLibraryFixture(t)
	first, err := f.svc.RunEncounter(svcCtx, libFight, core.RunEncounter{})
	if err != nil {
		t.Fatal(err)
	}
	f.rec.reset()
	before, _ := f.svc.HostCampaign(svcCtx)
	_, err = f.svc.RunEncounter(svcCtx, libFight, core.RunEncounter{})
	svcWantErr(t, err, core.KindConflict, "already on map")
	if len(f.rec.events) != 0 {
		t.Fatalf("a refused run sent %v", f.rec.names())
	}
	if after, _ := f.svc.HostCampaign(svcCtx); len(after.Game.Combatants) != len(before.Game.Combatants) {
		t.Fatalf("a refused run added combatants: %d -> %d", len(before.Game.Combatants), len(after.Game.Combatants))
	}
	again, err := f.svc.RunEncounter(svcCtx, libFight, core.RunEncounter{Again: true})
	if err != nil || len(again.Tokens) != 4 {
		t.Fatalf("run again: %+v %v", again, err)
	}
	// Both bands stand there: a third run is refused too.
	_, err = f.svc.RunEncounter(svcCtx, libFight, core.RunEncounter{})
	svcWantErr(t, err, core.KindConflict, "already on map")
	// A defeated goblin of each band is removed: the encounter is not
	// whole on the map any more, and a run is a new one.
	for _, run := range []*core.EncounterRun{first, again} {
		if err := f.svc.DeleteToken(svcCtx, run.Tokens[1].ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.svc.RunEncounter(svcCtx, libFight, core.RunEncounter{}); err != nil {
		t.Fatalf("a run after the band thinned out: %v", err)
	}
}

// A module's map on the player screen is named in the host's view, with
// its module, though it is not one of the campaign's maps.
func TestHostCampaignNamesAModulesMapOnScreen(t *testing.T) {
	f := newLibraryFixture(t)
	if _, err := f.svc.ShowMap(svcCtx, libMap); err != nil {
		t.Fatal(err)
	}
	view, err := f.svc.HostCampaign(svcCtx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range view.Maps {
		if m.ID == libMap {
			t.Fatalf("the module's map is listed among the campaign's: %+v", m)
		}
	}
	if sm := view.ScreenMap; sm == nil || sm.ID != libMap || sm.Library != "Marsh Bats" || !sm.OnScreen {
		t.Fatalf("screenMap = %+v, want the module's map, from Marsh Bats", sm)
	}
	if _, err := f.svc.ShowMap(svcCtx, ""); err != nil {
		t.Fatal(err)
	}
	if view, _ := f.svc.HostCampaign(svcCtx); view.ScreenMap != nil {
		t.Fatalf("a clear screen has screenMap %+v", view.ScreenMap)
	}
}

func TestParseAppLink(t *testing.T) {
	cases := map[string]pages.AppLink{
		"/monster/goblin":               {Kind: pages.LinkEntity, EntityKind: "monster", Slug: "goblin"},
		"/page/intro#boxed":             {Kind: pages.LinkPage, Slug: "intro", Fragment: "boxed"},
		"/module/marsh-bats/page/intro": {Kind: pages.LinkPage, ScopeKind: "module", Scope: "marsh-bats", Slug: "intro"},
		"/campaign/c/map/cave":          {Kind: pages.LinkMap, ScopeKind: "campaign", Scope: "c", Slug: "cave"},
		"/encounter/bats":               {Kind: pages.LinkEncounter, Slug: "bats"},
		"/roll/1d20/Attack/attack":      {Kind: pages.LinkOther},
		"/modules/x/a.pdf":              {Kind: pages.LinkFile},
		"https://example.org/":          {Kind: pages.LinkExternal},
		"#top":                          {Kind: pages.LinkExternal},
		"other.html":                    {Kind: pages.LinkOther},
		"/module/x/page":                {Kind: pages.LinkOther},
	}
	for href, want := range cases {
		if got := pages.ParseAppLink(href, ""); got != want {
			t.Errorf("%s: %+v, want %+v", href, got, want)
		}
	}
	if got := pages.ParseAppLink("monster", "Cave Bat"); got.Kind != pages.LinkEntity || got.Slug != "cave-bat" {
		t.Errorf("markdown kind form: %+v", got)
	}
}

// A page written inside a page (a legacy module's sub-page) stands under
// it in the tree; pages whose parents loop stand at the top level.
func TestLibraryTreeNestsSubPages(t *testing.T) {
	f := newLibraryFixture(t)
	err := f.store.Update(svcCtx, func(tx core.Tx) error {
		for _, p := range []*core.Page{
			{ID: "p-aside", Name: "Aside", ParentID: libIntro, Content: "<p>x</p>"},
			{ID: "p-loop-a", Name: "Loop Page A", ParentID: "p-loop-b", Content: "<p>a</p>"},
			{ID: "p-loop-b", Name: "Loop Page B", ParentID: "p-loop-a", Content: "<p>b</p>"},
			{ID: "p-self", Name: "Self", ParentID: "p-self", Content: "<p>s</p>"},
		} {
			p.Owner = libModule
			if err := p.Normalize(); err != nil {
				return err
			}
			if err := tx.PutPage(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lib, err := f.svc.Library(svcCtx, libModule)
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]*core.LibraryItem{}
	for _, it := range lib.Items {
		top[it.Name] = it
	}
	for _, name := range []string{"Loop Page A", "Loop Page B", "Self"} {
		if top[name] == nil || len(top[name].Children) != 0 {
			t.Errorf("%s not at the top level alone: %+v", name, top[name])
		}
	}
	intro := top["Chapter 1"].Children[0]
	if intro.Name != "Introduction" || len(intro.Children) != 1 || intro.Children[0].Name != "Aside" || intro.Children[0].Type != "page" {
		t.Errorf("intro %+v", intro)
	}
}
