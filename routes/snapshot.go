package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/systems"
)

// snapshotCache keeps the stored part of GET /api, already encoded, while
// the service's write generation and the loaded system are unchanged:
// reading it costs several queries and decoding every token and message.
// The live part (pause, remote interaction, tracked objects) is read and
// encoded fresh on every request.
type snapshotCache struct {
	mu    sync.Mutex
	entry *snapshotParts
	// fill lets one request at a time read and encode a stale snapshot;
	// the others wait for it and share the result, so a burst of GET /api
	// after a change encodes it once instead of once per request.
	fill sync.Mutex
}

// snapshotParts is a snapshot's stored part in JSON, plus what keys it.
type snapshotParts struct {
	system     *systems.System
	generation uint64
	head       []byte // {"version":...,"build":...,"game":...[,"map":...]
	picture    string // the map's picture for index.html to start early (client_picture.go)
	screen     core.Screen
	messages   []byte

	// seatMessages are the messages of seated players, by seat (the hash
	// of its token): those for everyone and their whispers
	// (engine.Service.SeatMessages), encoded on a seat's first read of this
	// generation.
	seatMu       sync.Mutex
	seatMessages map[string][]byte
}

// maxCachedSeats bounds seatMessages: past it the map starts afresh.
const maxCachedSeats = 64

// messagesFor returns the messages of seat's GET /api: everyone's without
// a seat, else the seat's own list, encoded once per generation.
func (p *snapshotParts) messagesFor(ctx context.Context, svc *engine.Service, seat string) ([]byte, error) {
	if seat == "" {
		return p.messages, nil
	}
	p.seatMu.Lock()
	defer p.seatMu.Unlock()
	if b, ok := p.seatMessages[seat]; ok {
		return b, nil
	}
	list, err := svc.SeatMessages(ctx, seat)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(list)
	if err != nil {
		return nil, core.Internal(err)
	}
	if p.seatMessages == nil || len(p.seatMessages) >= maxCachedSeats {
		p.seatMessages = map[string][]byte{}
	}
	p.seatMessages[seat] = b
	return b, nil
}

func (c *snapshotCache) parts(ctx context.Context, svc *engine.Service, sys *systems.System) (*snapshotParts, error) {
	gen := svc.Generation() // before the read: a racing write only makes the entry stale
	c.mu.Lock()
	p := c.entry
	c.mu.Unlock()
	if p != nil && p.system == sys && p.generation == gen {
		return p, nil
	}
	c.fill.Lock()
	defer c.fill.Unlock()
	c.mu.Lock()
	p = c.entry
	c.mu.Unlock()
	if p != nil && p.system == sys && p.generation >= gen {
		return p, nil
	}
	snap, err := svc.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	p, err = encodeSnapshotParts(snap)
	if err != nil {
		return nil, err
	}
	p.system, p.generation = sys, gen
	c.mu.Lock()
	c.entry = p
	c.mu.Unlock()
	return p, nil
}

func encodeSnapshotParts(snap *core.Snapshot) (*snapshotParts, error) {
	var head bytes.Buffer
	head.WriteString(`{"version":`)
	v, _ := json.Marshal(snap.Version)
	head.Write(v)
	head.WriteString(`,"build":`)
	head.WriteString(strconv.Itoa(snap.Build))
	head.WriteString(`,"game":`)
	game, err := json.Marshal(snap.Game)
	if err != nil {
		return nil, core.Internal(err)
	}
	head.Write(game)
	if snap.Map != nil {
		m, err := json.Marshal(snap.Map)
		if err != nil {
			return nil, core.Internal(err)
		}
		head.WriteString(`,"map":`)
		head.Write(m)
	}
	messages, err := json.Marshal(snap.Messages)
	if err != nil {
		return nil, core.Internal(err)
	}
	p := &snapshotParts{head: head.Bytes(), messages: messages, picture: pictureHint(snap.Map)}
	if snap.Screen != nil {
		p.screen = *snap.Screen
	}
	return p, nil
}

// body returns GET /api: the cached stored part with the live part of now.
// The key order is that of core.Snapshot.
func (c *snapshotCache) body(ctx context.Context, svc *engine.Service, sys *systems.System, seat string) ([]byte, error) {
	p, err := c.parts(ctx, svc, sys)
	if err != nil {
		return nil, err
	}
	if onMap := svc.SeatMapID(seat); onMap != "" && onMap != p.screen.MapID {
		// A seat on a map of its own (a split party): its own snapshot,
		// not cached, since few seats are away from the screen at once.
		snap, err := svc.SnapshotOn(ctx, onMap)
		if err != nil {
			return nil, err
		}
		if p, err = encodeSnapshotParts(snap); err != nil {
			return nil, err
		}
	}
	messages, err := p.messagesFor(ctx, svc, seat)
	if err != nil {
		return nil, err
	}
	live := svc.Live()
	settings := live.Settings()
	screen := p.screen
	screen.ApplySettings(settings)
	screenJSON, err := json.Marshal(&screen)
	if err != nil {
		return nil, core.Internal(err)
	}
	tracked, err := json.Marshal(live.TrackedObjects())
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]byte, 0, len(p.head)+len(messages)+len(screenJSON)+len(tracked)+64)
	out = append(out, p.head...)
	out = append(out, `,"screen":`...)
	out = append(out, screenJSON...)
	out = append(out, `,"messages":`...)
	out = append(out, messages...)
	out = append(out, `,"trackedObjects":`...)
	out = append(out, tracked...)
	out = append(out, `,"paused":`...)
	out = strconv.AppendBool(out, settings.Paused)
	return append(out, '}'), nil
}
