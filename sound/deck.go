package sound

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/vttapp/companion/core"
)

// EventSoundUpdated carries the whole playback state (State) to every
// connection after any change: players' pages and displays play what it
// says, at the position it says.
const EventSoundUpdated = core.EventSoundUpdated

// Limits of playlists (docs/limits.md).
const (
	MaxPlaylists      = 200
	MaxPlaylistTracks = 1000
	MaxFade           = 30 // seconds
)

// Channels: each listener has a volume for each.
const (
	ChannelMusic    = "music"
	ChannelAmbience = "ambience"
	ChannelEffects  = "effects"
)

// Which screens play the table's sound.
const (
	ScreensAll      = "all"      // every player page and display
	ScreensDisplays = "displays" // only displays (a TV at the table)
	ScreensNone     = "none"     // silence everywhere, the state kept
)

// Playlist is an ordered list of the library's tracks and how it plays.
type Playlist struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Tracks []string `json:"tracks"` // track ids, in order; a track may come twice
	// Shuffle plays the tracks in a random order, drawn anew each round.
	Shuffle bool `json:"shuffle"`
	// Loop starts again after the last track; otherwise the list stops.
	Loop bool `json:"loop"`
	// Fade is the seconds over which a track fades in and out (0: none).
	Fade    float64 `json:"fade"`
	Channel string  `json:"channel"` // music, ambience or effects
	Volume  float64 `json:"volume"`  // 0 to 1, the game master's level for it
}

// Playback is one playlist playing (or paused) on every screen.
type Playback struct {
	Playlist string  `json:"playlist"`
	Name     string  `json:"name"` // the playlist's
	Channel  string  `json:"channel"`
	Volume   float64 `json:"volume"`
	Fade     float64 `json:"fade"`
	Loop     bool    `json:"loop"`
	// Index is the place in the play order (shuffled or not) of Track.
	Index int   `json:"index"`
	Track Track `json:"track"`
	// StartedAt is the server clock (Unix milliseconds) at which the
	// track's start played, or would have: a page that joins late plays
	// from (now - startedAt) on its estimate of the server's clock.
	// Meaningless while paused.
	StartedAt int64 `json:"startedAt"`
	Paused    bool  `json:"paused"`
	// Position is where a paused track stands, in seconds.
	Position float64 `json:"position"`
}

// State is the whole playback state.
type State struct {
	// ServerTime is the server clock when the state was read (Unix ms).
	ServerTime int64      `json:"serverTime"`
	Screens    string     `json:"screens"`
	Playing    []Playback `json:"playing"`
}

// Control is one action of the game master on a playlist.
type Control struct {
	// Action: play (from the start, or from Track at Position; a paused
	// list resumes), pause, resume, skip (to the next track), seek (to
	// Position in the current track), stop.
	Action string `json:"action"`
	// Track is the index in the playlist's track list to play (play only).
	Track *int `json:"track,omitempty"`
	// Position in seconds (play, seek).
	Position float64 `json:"position,omitempty"`
}

// ScreensChange chooses which screens play.
type ScreensChange struct {
	Screens string `json:"screens"`
}

// Deck keeps the playlists (in the library's folder, playlists.json) and
// the playback state, and advances each playing list when its track ends.
type Deck struct {
	Library *Library
	Events  core.Publisher
	// Now is the server's clock (time.Now when nil); tests set it.
	Now func() time.Time

	mu        sync.Mutex
	dir       string // the folder the playlists were read from
	playlists []Playlist
	screens   string
	playing   []*playing
}

// playing is a Playback and what the server needs to go on: the order and
// the timer that moves to the next track.
type playing struct {
	Playback
	order []int // indexes into the playlist's tracks
	timer *time.Timer
	gen   int
}

const playlistsFile = "playlists.json"

func (d *Deck) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// load reads the playlists of the current folder; a new folder (another
// primary campaign) stops whatever played.
func (d *Deck) load(ctx context.Context) (Folder, error) {
	f, err := d.Library.Locate(ctx)
	if err != nil {
		return f, err
	}
	if f.Dir == d.dir {
		return f, nil
	}
	d.stopAll()
	d.dir, d.playlists = f.Dir, []Playlist{}
	b, err := os.ReadFile(filepath.Join(f.Dir, playlistsFile))
	if err == nil {
		var lists []Playlist
		if jsonErr := json.Unmarshal(b, &lists); jsonErr == nil {
			d.playlists = lists
		}
	}
	if d.screens == "" {
		d.screens = ScreensAll
	}
	return f, nil
}

func (d *Deck) save() error {
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return core.Internal(err)
	}
	if err := writeJSON(filepath.Join(d.dir, playlistsFile), d.playlists); err != nil {
		return core.Internal(err)
	}
	return nil
}

// Playlists returns every playlist.
func (d *Deck) Playlists(ctx context.Context) ([]Playlist, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.load(ctx); err != nil {
		return nil, err
	}
	return slices.Clone(d.playlists), nil
}

// PutPlaylist creates (empty id) or replaces a playlist.
func (d *Deck) PutPlaylist(ctx context.Context, p Playlist) (Playlist, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, err := d.load(ctx)
	if err != nil {
		return Playlist{}, err
	}
	if err := d.check(f, &p); err != nil {
		return Playlist{}, err
	}
	i := slices.IndexFunc(d.playlists, func(q Playlist) bool { return q.ID == p.ID })
	switch {
	case p.ID == "":
		if len(d.playlists) >= MaxPlaylists {
			return Playlist{}, core.Conflictf("there are %d playlists, the most there may be", MaxPlaylists)
		}
		p.ID = core.NewID()
		d.playlists = append(d.playlists, p)
	case i < 0:
		return Playlist{}, core.NotFoundf("no playlist '%s'", core.Clip(p.ID))
	default:
		d.playlists[i] = p
	}
	if err := d.save(); err != nil {
		return Playlist{}, err
	}
	// A playing list takes its new volume, fade and loop at once.
	for _, pl := range d.playing {
		if pl.Playlist == p.ID {
			pl.Name, pl.Volume, pl.Fade, pl.Loop, pl.Channel = p.Name, p.Volume, p.Fade, p.Loop, p.Channel
			d.publish()
		}
	}
	return p, nil
}

// DeletePlaylist removes a playlist and stops it.
func (d *Deck) DeletePlaylist(ctx context.Context, id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.load(ctx); err != nil {
		return err
	}
	i := slices.IndexFunc(d.playlists, func(q Playlist) bool { return q.ID == id })
	if i < 0 {
		return core.NotFoundf("no playlist '%s'", core.Clip(id))
	}
	d.playlists = slices.Delete(d.playlists, i, i+1)
	if err := d.save(); err != nil {
		return err
	}
	if d.stop(id) {
		d.publish()
	}
	return nil
}

// check validates a playlist against the limits and the library.
func (d *Deck) check(f Folder, p *Playlist) error {
	p.Name = strings.TrimSpace(p.Name)
	if p.Name == "" || utf8.RuneCountInString(p.Name) > MaxNameLength || strings.ContainsFunc(p.Name, unicode.IsControl) {
		return core.Invalidf("a playlist's name is 1 to %d characters without control characters", MaxNameLength)
	}
	if len(p.Tracks) > MaxPlaylistTracks {
		return core.Invalidf("a playlist holds at most %d tracks, not %d", MaxPlaylistTracks, len(p.Tracks))
	}
	for _, id := range p.Tracks {
		if _, err := readTrack(f, id); err != nil {
			return core.Invalidf("the playlist names a track the library does not have: '%s'", core.Clip(id))
		}
	}
	if p.Tracks == nil {
		p.Tracks = []string{}
	}
	if p.Fade < 0 || p.Fade > MaxFade || math.IsNaN(p.Fade) {
		return core.Invalidf("fade is 0 to %d seconds", MaxFade)
	}
	switch p.Channel {
	case "":
		p.Channel = ChannelMusic
	case ChannelMusic, ChannelAmbience, ChannelEffects:
	default:
		return core.Invalidf("channel is music, ambience or effects, not '%s'", core.Clip(p.Channel))
	}
	if p.Volume == 0 {
		p.Volume = 1
	}
	if p.Volume < 0 || p.Volume > 1 || math.IsNaN(p.Volume) {
		return core.Invalidf("volume is 0 to 1")
	}
	return nil
}

// State returns the playback state now.
func (d *Deck) State(ctx context.Context) (State, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.load(ctx); err != nil {
		return State{}, err
	}
	return d.state(), nil
}

func (d *Deck) state() State {
	s := State{ServerTime: d.now().UnixMilli(), Screens: d.screens, Playing: []Playback{}}
	if s.Screens == "" {
		s.Screens = ScreensAll
	}
	for _, p := range d.playing {
		s.Playing = append(s.Playing, p.Playback)
	}
	return s
}

func (d *Deck) publish() {
	if d.Events != nil {
		d.Events.Publish(core.Event{Name: EventSoundUpdated, Data: d.state()})
	}
}

// SetScreens chooses which screens play.
func (d *Deck) SetScreens(ctx context.Context, c ScreensChange) (State, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.load(ctx); err != nil {
		return State{}, err
	}
	switch c.Screens {
	case ScreensAll, ScreensDisplays, ScreensNone:
	default:
		return State{}, core.Invalidf("screens is all, displays or none, not '%s'", core.Clip(c.Screens))
	}
	d.screens = c.Screens
	d.publish()
	return d.state(), nil
}

// Control plays, pauses, resumes, skips, seeks or stops a playlist.
func (d *Deck) Control(ctx context.Context, playlist string, c Control) (State, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, err := d.load(ctx)
	if err != nil {
		return State{}, err
	}
	i := slices.IndexFunc(d.playlists, func(q Playlist) bool { return q.ID == playlist })
	if i < 0 {
		return State{}, core.NotFoundf("no playlist '%s'", core.Clip(playlist))
	}
	list := d.playlists[i]
	cur := d.find(playlist)
	now := d.now()
	if c.Position < 0 || math.IsNaN(c.Position) || math.IsInf(c.Position, 0) {
		return State{}, core.Invalidf("position is a number of seconds from 0")
	}
	switch c.Action {
	case "play":
		if cur != nil && cur.Paused && c.Track == nil && c.Position == 0 {
			d.resume(cur, now)
			break
		}
		if len(list.Tracks) == 0 {
			return State{}, core.Invalidf("the playlist '%s' has no tracks", core.Clip(list.Name))
		}
		start := -1
		if c.Track != nil {
			if *c.Track < 0 || *c.Track >= len(list.Tracks) {
				return State{}, core.Invalidf("track is an index from 0 to %d", len(list.Tracks)-1)
			}
			start = *c.Track
		}
		d.stop(playlist)
		p := &playing{Playback: Playback{Playlist: list.ID, Name: list.Name, Channel: list.Channel, Volume: list.Volume,
			Fade: list.Fade, Loop: list.Loop}}
		p.order = playOrder(len(list.Tracks), list.Shuffle, start)
		if err := d.cue(f, p, list, 0, now.Add(-seconds(c.Position)), c.Position); err != nil {
			return State{}, err
		}
		d.playing = append(d.playing, p)
	case "pause":
		if cur == nil {
			return State{}, core.Conflictf("the playlist '%s' is not playing", core.Clip(list.Name))
		}
		if !cur.Paused {
			cur.Position = min(position(cur, now), cur.Track.Duration)
			cur.Paused = true
			d.disarm(cur)
		}
	case "resume":
		if cur == nil {
			return State{}, core.Conflictf("the playlist '%s' is not playing", core.Clip(list.Name))
		}
		if cur.Paused {
			d.resume(cur, now)
		}
	case "seek":
		if cur == nil {
			return State{}, core.Conflictf("the playlist '%s' is not playing", core.Clip(list.Name))
		}
		if cur.Track.Duration > 0 && c.Position > cur.Track.Duration {
			return State{}, core.Invalidf("cannot seek to %.1f s: '%s' is %.1f s long", c.Position, core.Clip(cur.Track.Name), cur.Track.Duration)
		}
		if cur.Paused {
			cur.Position = c.Position
		} else {
			cur.StartedAt = now.Add(-seconds(c.Position)).UnixMilli()
			d.arm(cur)
		}
	case "skip":
		if cur == nil {
			return State{}, core.Conflictf("the playlist '%s' is not playing", core.Clip(list.Name))
		}
		d.next(cur, now)
	case "stop":
		d.stop(playlist)
	default:
		return State{}, core.Invalidf("action is play, pause, resume, skip, seek or stop, not '%s'", core.Clip(c.Action))
	}
	d.publish()
	return d.state(), nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// position is where a playing track stands at now, in seconds.
func position(p *playing, now time.Time) float64 {
	if p.Paused {
		return p.Position
	}
	return float64(now.UnixMilli()-p.StartedAt) / 1000
}

func (d *Deck) resume(p *playing, now time.Time) {
	p.StartedAt = now.Add(-seconds(p.Position)).UnixMilli()
	p.Paused, p.Position = false, 0
	d.arm(p)
}

func (d *Deck) find(playlist string) *playing {
	for _, p := range d.playing {
		if p.Playlist == playlist {
			return p
		}
	}
	return nil
}

// playOrder is the order of n tracks: as listed from start (or 0), or
// shuffled with start first when given.
func playOrder(n int, shuffle bool, start int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if shuffle {
		rand.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		if start >= 0 {
			k := slices.Index(order, start)
			order[0], order[k] = order[k], order[0]
		}
		return order
	}
	if start > 0 {
		order = append(order[start:], order[:start]...)
	}
	return order
}

// cue puts the track at place idx of p's order on, started at startedAt.
func (d *Deck) cue(f Folder, p *playing, list Playlist, idx int, startedAt time.Time, pos float64) error {
	t, err := readTrack(f, list.Tracks[p.order[idx]])
	if err != nil {
		return core.Conflictf("a track of the playlist is no longer in the library: %v", err)
	}
	if t.Duration > 0 && pos > t.Duration {
		return core.Invalidf("cannot start at %.1f s: '%s' is %.1f s long", pos, core.Clip(t.Name), t.Duration)
	}
	p.Index, p.Track = idx, t
	p.StartedAt, p.Paused, p.Position = startedAt.UnixMilli(), false, 0
	d.arm(p)
	return nil
}

// next moves p to its next track, started at now (or, for a track that
// ended, at its end, so that every screen stays in step); the last of a
// list that does not loop stops it.
func (d *Deck) next(p *playing, start time.Time) {
	i := slices.IndexFunc(d.playlists, func(q Playlist) bool { return q.ID == p.Playlist })
	f, err := d.Library.Locate(context.Background())
	if i < 0 || err != nil || f.Dir != d.dir {
		d.stop(p.Playlist)
		return
	}
	list := d.playlists[i]
	idx := p.Index + 1
	if idx >= len(p.order) || len(p.order) != len(list.Tracks) {
		if !list.Loop || len(list.Tracks) == 0 {
			d.stop(p.Playlist)
			return
		}
		p.order, idx = playOrder(len(list.Tracks), list.Shuffle, -1), 0
	}
	if err := d.cue(f, p, list, idx, start, 0); err != nil {
		d.stop(p.Playlist)
	}
}

// arm sets the timer that moves p on when its track ends.
func (d *Deck) arm(p *playing) {
	d.disarm(p)
	if p.Paused || p.Track.Duration <= 0 {
		return
	}
	end := time.UnixMilli(p.StartedAt).Add(seconds(p.Track.Duration))
	gen := p.gen
	p.timer = time.AfterFunc(end.Sub(d.now()), func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if p.gen != gen || d.find(p.Playlist) != p {
			return // paused, sought, skipped or stopped meanwhile
		}
		d.next(p, end)
		d.publish()
	})
}

func (d *Deck) disarm(p *playing) {
	p.gen++
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
}

// stop ends a playlist's playback; reports whether it played.
func (d *Deck) stop(playlist string) bool {
	for i, p := range d.playing {
		if p.Playlist == playlist {
			d.disarm(p)
			d.playing = slices.Delete(d.playing, i, i+1)
			return true
		}
	}
	return false
}

func (d *Deck) stopAll() {
	for _, p := range d.playing {
		d.disarm(p)
	}
	d.playing = nil
}

// Close stops every timer.
func (d *Deck) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopAll()
}

// Audible reports whether a URL path is a track playing now: the one file
// of the library players may fetch (the others are the game master's).
func (d *Deck) Audible(urlPath string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, p := range d.playing {
		if p.Track.URL == urlPath {
			return true
		}
	}
	return false
}

// Forget stops whatever plays a track the library no longer has.
func (d *Deck) Forget(trackID string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	changed := false
	for _, p := range slices.Clone(d.playing) {
		if p.Track.ID == trackID {
			changed = d.stop(p.Playlist) || changed
		}
	}
	if changed {
		d.publish()
	}
}
