package engine

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/sight"
)

// tokenGuard is the rules on a player's token write: the token stands on
// the map the player looks at (a split party: another seat's map does not
// exist for them), and with the join key on, the player may drag it.
func (p PlayerAccess) tokenGuard(ctx context.Context) kernel.EditGuard[core.Token] {
	who, keyOn := p.who, p.s.kernel.JoinKeyOn(ctx)
	return func(s kernel.Pinned, tx core.Tx, _, old *core.Token) error {
		if err := s.OnViewerMap(tx, who, old); err != nil {
			return err
		}
		if keyOn && !s.ActorMayMove(who, old) {
			return core.Forbiddenf("with the join key on, a player changes only the tokens they may drag")
		}
		return nil
	}
}

// combatantGuard is the join key's rule on a player's combatant write.
func (p PlayerAccess) combatantGuard(ctx context.Context) kernel.EditGuard[core.Combatant] {
	if !p.s.kernel.JoinKeyOn(ctx) {
		return nil
	}
	who := p.who
	return func(s kernel.Pinned, _ core.Tx, next, old *core.Combatant) error {
		seat := s.HeldSeatOf(who.Seat)
		if seat == nil || old.EntityID == "" || old.EntityID != seat.EntityID {
			return core.Forbiddenf("with the join key on, a player changes only their own character")
		}
		a, b := *old, *next
		a.Data, b.Data = nil, nil
		return s.CheckOwnEdit(old.EntityType, old.Data, next.Data, &a, &b)
	}
}

// entityGuard is the join key's rule on a player's entity write.
func (p PlayerAccess) entityGuard(ctx context.Context) kernel.EditGuard[core.Entity] {
	if !p.s.kernel.JoinKeyOn(ctx) {
		return nil
	}
	who := p.who
	return func(s kernel.Pinned, _ core.Tx, next, old *core.Entity) error {
		seat := s.HeldSeatOf(who.Seat)
		if seat == nil || old.ID != seat.EntityID {
			return core.Forbiddenf("with the join key on, a player changes only their own character")
		}
		return s.CheckOwnEdit(old.Kind, old.Data, next.Data, old.WithoutData(), next.WithoutData())
	}
}

// PutEntity is Service.PutEntity for a player.
func (p PlayerAccess) PutEntity(ctx context.Context, kind, pathID string, e *core.Entity) (*core.Entity, error) {
	if err := p.who.RefuseSpectator("change entities"); err != nil {
		return nil, err
	}
	return redact.PlayersEntity(p.s.kernel.PutEntityChecked(ctx, kind, pathID, e, p.entityGuard(ctx), true))
}

// PatchEntity is Service.PatchEntity for a player.
func (p PlayerAccess) PatchEntity(ctx context.Context, kind, id string, patch core.Object) (*core.Entity, error) {
	if err := p.who.RefuseSpectator("change entities"); err != nil {
		return nil, err
	}
	return redact.PlayersEntity(p.s.kernel.PatchEntityChecked(ctx, kind, id, patch, p.entityGuard(ctx), true))
}

// SetAttribute is Service.SetAttribute for a player: with the join key on,
// attributes are the game master's (they are no character's editable
// data).
func (p PlayerAccess) SetAttribute(ctx context.Context, a core.Attribute) (*core.Attribute, error) {
	if err := p.who.RefuseSpectator("change attributes"); err != nil {
		return nil, err
	}
	if p.s.kernel.JoinKeyOn(ctx) {
		return nil, core.Forbiddenf("with the join key on, attributes are the game master's to change")
	}
	return p.s.kernel.SetAttribute(ctx, a)
}

// CreateMessage is POST /api/messages: a player's (or a tool's) message,
// its speaker named by the server (speaker.go), counted in the device's
// message budget (messagebudget.go). A /roll command that cannot be
// rolled is stored with its error, as the contract's endpoint does.
func (p PlayerAccess) CreateMessage(ctx context.Context, m *core.Message) (*core.Message, error) {
	if err := p.who.RefuseSpectator("chat or roll"); err != nil {
		return nil, err
	}
	return p.s.kernel.WriteMessage(ctx, kernel.PlayerText(m), chat.MessageAuthor{Who: p.who}, false)
}

// PostMessage is createMessage over the WebSocket: CreateMessage, except
// that a /roll command that cannot be rolled is refused with the dice
// engine's explanation and nothing is stored (the typo goes back to the
// one who typed it).
func (p PlayerAccess) PostMessage(ctx context.Context, m *core.Message) (*core.Message, error) {
	if err := p.who.RefuseSpectator("chat or roll"); err != nil {
		return nil, err
	}
	return p.s.kernel.WriteMessage(ctx, kernel.PlayerText(m), chat.MessageAuthor{Who: p.who}, true)
}

// UpdateDoor is a player's updateDoor: refused when remote interaction is
// off, and to a spectator; only a door players see, on the map on the
// player screen.
func (p PlayerAccess) UpdateDoor(ctx context.Context, d core.Door) ([]sight.Sight, error) {
	if err := p.who.RefuseSpectator("open or close doors"); err != nil {
		return nil, err
	}
	if err := p.s.kernel.CheckRemoteInteraction(core.RequestUpdateDoor); err != nil {
		return nil, err
	}
	return p.s.kernel.UpdateDoorAs(ctx, d, &p.who)
}

// MovePointer is a player's pointerUpdated (refused to a spectator): it
// reaches the players looking at the same map as the sender.
func (p PlayerAccess) MovePointer(from core.EventSource, ptr core.Pointer) error {
	if err := p.who.RefuseSpectator("move a pointer"); err != nil {
		return err
	}
	return p.s.kernel.MovePointerOn(from, ptr, p.s.kernel.ViewerMap(p.who.Seat))
}

// TrackObject is a client's trackedObject* report (refused to a
// spectator, who reports nothing).
func (p PlayerAccess) TrackObject(name string, objects []*core.TrackedObject) error {
	if err := p.who.RefuseSpectator("report tracked objects"); err != nil {
		return err
	}
	return p.s.kernel.TrackObject(name, objects)
}

// RefuseSpectator returns the error for a spectator trying what (nil for
// anyone else): for the transports' own refusals (an import offer).
func (p PlayerAccess) RefuseSpectator(what string) error { return p.who.RefuseSpectator(what) }
