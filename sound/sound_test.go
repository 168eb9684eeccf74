package sound_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/sound"
)

type recorder struct {
	mu     sync.Mutex
	states []sound.State
}

func (r *recorder) Publish(evs ...core.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range evs {
		if e.Name == sound.EventSoundUpdated {
			r.states = append(r.states, e.Data.(sound.State))
		}
	}
}

func (r *recorder) last() sound.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.states[len(r.states)-1]
}

func newLibrary(t *testing.T) (*sound.Library, string) {
	dir := filepath.Join(t.TempDir(), "audio")
	return &sound.Library{Locate: func(context.Context) (sound.Folder, error) {
		return sound.Folder{Dir: dir, URL: "/campaigns/c1/audio"}, nil
	}}, dir
}

// files lists what the library folder holds, dot files included.
func files(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestLibraryStoresAChecksFileUnderItsIDAndNamesItSafely(t *testing.T) {
	lib, dir := newLibrary(t)
	ctx := context.Background()
	tr, err := lib.Add(ctx, "../../etc/\x1bpasswd.wav", bytes.NewReader(testkit.WAV(1.5, 8000)))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Name != "passwd" || tr.Duration != 1.5 || tr.Format != "WAV" || tr.URL != "/campaigns/c1/audio/"+tr.ID+".wav" {
		t.Fatalf("track %+v", tr)
	}
	if got := files(t, dir); len(got) != 2 {
		t.Fatalf("folder holds %v, want the file and its record", got)
	}
	name := "Rain loop"
	if _, err := lib.Change(ctx, tr.ID, sound.TrackChange{Name: &name, Tags: []string{"Rain", " rain ", "night"}}); err != nil {
		t.Fatal(err)
	}
	list, err := lib.List(ctx)
	if err != nil || len(list) != 1 || list[0].Name != name || strings.Join(list[0].Tags, ",") != "rain,night" {
		t.Fatalf("list %+v %v", list, err)
	}
	if _, err := lib.Get(ctx, "../"+tr.ID); !core.IsNotFound(err) {
		t.Fatalf("a hostile id: %v", err)
	}
}

type brokenReader struct{ n int }

func (b *brokenReader) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, errors.New("the connection was cut")
	}
	n := min(len(p), b.n)
	b.n -= n
	return n, nil
}

func TestLibraryStoresNothingOfARefusedUpload(t *testing.T) {
	lib, dir := newLibrary(t)
	lib.MaxBytes = 64 << 10
	ctx := context.Background()
	wav := testkit.WAV(1, 8000)
	cases := []struct {
		name string
		src  io.Reader
		want func(error) bool
	}{
		{"text named .mp3", strings.NewReader("just text, not a song"), isKind(core.KindInvalid)},
		{"too large", bytes.NewReader(testkit.WAV(10, 8000)), isKind(core.KindTooLarge)},
		{"truncated", bytes.NewReader(wav[:len(wav)/2]), isKind(core.KindInvalid)},
		{"broke off", io.MultiReader(bytes.NewReader(wav[:1000]), &brokenReader{n: 100}), isKind(core.KindInvalid)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := lib.Add(ctx, c.name+".mp3", c.src)
			if !c.want(err) {
				t.Fatalf("got %v", err)
			}
			if got := files(t, dir); len(got) != 0 {
				t.Fatalf("left %v behind", got)
			}
		})
	}
}

// clock is a settable server clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newDeck(t *testing.T, tracks ...float64) (*sound.Deck, *recorder, *clock, []sound.Track) {
	lib, _ := newLibrary(t)
	rec := &recorder{}
	clk := &clock{t: time.Now()}
	d := &sound.Deck{Library: lib, Events: rec, Now: clk.now}
	t.Cleanup(d.Close)
	var out []sound.Track
	for _, s := range tracks {
		tr, err := lib.Add(context.Background(), "t.wav", bytes.NewReader(testkit.WAV(s, 8000)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	return d, rec, clk, out
}

func ids(tracks []sound.Track) []string {
	var out []string
	for _, t := range tracks {
		out = append(out, t.ID)
	}
	return out
}

func TestDeckKeepsTheStateOnTheServerClock(t *testing.T) {
	d, rec, clk, tracks := newDeck(t, 60, 30)
	ctx := context.Background()
	p, err := d.PutPlaylist(ctx, sound.Playlist{Name: "Tavern", Tracks: ids(tracks), Loop: true, Fade: 2})
	if err != nil {
		t.Fatal(err)
	}
	start := clk.now()
	if _, err := d.Control(ctx, p.ID, sound.Control{Action: "play", Position: 10}); err != nil {
		t.Fatal(err)
	}
	st := rec.last()
	if len(st.Playing) != 1 || st.Playing[0].Track.ID != tracks[0].ID || st.Playing[0].StartedAt != start.Add(-10*time.Second).UnixMilli() {
		t.Fatalf("after play at 10 s: %+v", st)
	}
	clk.add(5 * time.Second)
	d.Control(ctx, p.ID, sound.Control{Action: "pause"})
	if pb := rec.last().Playing[0]; !pb.Paused || pb.Position != 15 {
		t.Fatalf("paused at %+v, want 15 s", pb)
	}
	clk.add(time.Minute) // paused: time passes, the position does not
	d.Control(ctx, p.ID, sound.Control{Action: "resume"})
	if pb := rec.last().Playing[0]; pb.Paused || pb.StartedAt != clk.now().Add(-15*time.Second).UnixMilli() {
		t.Fatalf("resumed %+v", pb)
	}
	if _, err := d.Control(ctx, p.ID, sound.Control{Action: "seek", Position: 61}); !isKind(core.KindInvalid)(err) || !strings.Contains(err.Error(), "60.0 s long") {
		t.Fatalf("a seek past the end: %v", err)
	}
	d.Control(ctx, p.ID, sound.Control{Action: "seek", Position: 42})
	if pb := rec.last().Playing[0]; pb.StartedAt != clk.now().Add(-42*time.Second).UnixMilli() {
		t.Fatalf("sought %+v", pb)
	}
	d.Control(ctx, p.ID, sound.Control{Action: "skip"})
	if pb := rec.last().Playing[0]; pb.Track.ID != tracks[1].ID || pb.Index != 1 {
		t.Fatalf("skipped to %+v", pb)
	}
	d.Control(ctx, p.ID, sound.Control{Action: "skip"}) // loops
	if pb := rec.last().Playing[0]; pb.Track.ID != tracks[0].ID {
		t.Fatalf("looped to %+v", pb)
	}
	if !d.Audible(tracks[0].URL) || d.Audible(tracks[1].URL) {
		t.Fatal("players may fetch the track that plays, and only it")
	}
	d.Control(ctx, p.ID, sound.Control{Action: "stop"})
	if len(rec.last().Playing) != 0 || d.Audible(tracks[0].URL) {
		t.Fatalf("stopped: %+v", rec.last())
	}
}

func TestDeckPlaysSeveralListsAndMovesOnWhenATrackEnds(t *testing.T) {
	d, rec, _, tracks := newDeck(t, 0.2, 0.2, 60)
	d.Now = nil // the real clock: the timers are real
	ctx := context.Background()
	music, _ := d.PutPlaylist(ctx, sound.Playlist{Name: "Short", Tracks: ids(tracks[:2])})
	rain, _ := d.PutPlaylist(ctx, sound.Playlist{Name: "Rain", Tracks: ids(tracks[2:]), Loop: true, Channel: sound.ChannelAmbience})
	d.Control(ctx, music.ID, sound.Control{Action: "play"})
	d.Control(ctx, rain.ID, sound.Control{Action: "play"})
	first := rec.last().Playing[0]
	if len(rec.last().Playing) != 2 {
		t.Fatalf("two lists at once: %+v", rec.last())
	}
	deadline := time.Now().Add(5 * time.Second)
	var second sound.Playback
	for time.Now().Before(deadline) {
		st, _ := d.State(ctx)
		if len(st.Playing) == 2 && st.Playing[0].Index == 1 {
			second = st.Playing[0]
		}
		if len(st.Playing) == 1 { // the list played once and stopped
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if second.Track.ID != tracks[1].ID || second.StartedAt != first.StartedAt+200 {
		t.Fatalf("the second track starts where the first ended: first %+v, second %+v", first, second)
	}
	if st, _ := d.State(ctx); len(st.Playing) != 1 || st.Playing[0].Playlist != rain.ID {
		t.Fatalf("after the short list ended: %+v", st)
	}
}

func TestDeckRefusesBadPlaylistsAndControls(t *testing.T) {
	d, _, _, tracks := newDeck(t, 1)
	ctx := context.Background()
	long := make([]string, 10000)
	for i := range long {
		long[i] = tracks[0].ID
	}
	for name, p := range map[string]sound.Playlist{
		"10,000 entries":  {Name: "Long", Tracks: long},
		"unknown track":   {Name: "X", Tracks: []string{"nope"}},
		"no name":         {Tracks: ids(tracks)},
		"a long fade":     {Name: "X", Fade: 100},
		"another channel": {Name: "X", Channel: "voices"},
	} {
		if _, err := d.PutPlaylist(ctx, p); !isKind(core.KindInvalid)(err) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if lists, _ := d.Playlists(ctx); len(lists) != 0 {
		t.Fatalf("refused lists were kept: %+v", lists)
	}
	p, _ := d.PutPlaylist(ctx, sound.Playlist{Name: "Ok", Tracks: ids(tracks)})
	if _, err := d.Control(ctx, p.ID, sound.Control{Action: "pause"}); !isKind(core.KindConflict)(err) {
		t.Errorf("pause before play: %v", err)
	}
	if _, err := d.Control(ctx, p.ID, sound.Control{Action: "play", Position: 5}); !isKind(core.KindInvalid)(err) {
		t.Errorf("play past the end: %v", err)
	}
	if _, err := d.Control(ctx, p.ID, sound.Control{Action: "dance"}); !isKind(core.KindInvalid)(err) {
		t.Errorf("an unknown action: %v", err)
	}
	if _, err := d.Control(ctx, "nope", sound.Control{Action: "play"}); !core.IsNotFound(err) {
		t.Errorf("an unknown list: %v", err)
	}
}

func isKind(k core.ErrorKind) func(error) bool {
	return func(err error) bool { return err != nil && core.KindOf(err) == k }
}

// A module's sound files join the library: the sound ones, checked by
// content and tagged; a text file named .mp3 is left out with its reason,
// other files are not looked at, and a second pass adds nothing twice.
func TestLibraryAddsAModulesSoundFiles(t *testing.T) {
	lib, _ := newLibrary(t)
	ctx := context.Background()
	module := fstest.MapFS{
		"audio/Harbour rain.wav": {Data: testkit.WAV(1, 8000)},
		"music/Tavern.wav":       {Data: testkit.WAV(2, 8000)},
		"audio/notes.mp3":        {Data: []byte("these are words, not sound")},
		"maps/hall.png":          {Data: []byte("\x89PNG")},
	}
	got, err := lib.AddFrom(ctx, module, "mod-harbour")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Added) != 2 || len(got.Skipped) != 1 || got.Skipped[0].File != "audio/notes.mp3" || !strings.Contains(got.Skipped[0].Reason, "not a sound file") {
		t.Fatalf("first pass: %+v", got)
	}
	for _, tr := range got.Added {
		if len(tr.Tags) != 1 || tr.Tags[0] != "mod-harbour" || tr.Duration < 0.9 {
			t.Errorf("added %+v: want the module's tag and its length", tr)
		}
	}
	again, err := lib.AddFrom(ctx, module, "mod-harbour")
	if err != nil || len(again.Added) != 0 || len(again.Skipped) != 3 {
		t.Fatalf("second pass: %+v %v", again, err)
	}
	if list, _ := lib.List(ctx); len(list) != 2 {
		t.Errorf("the library holds %d tracks, want 2", len(list))
	}
}
