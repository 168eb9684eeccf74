package engine

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// The kernel's own entry points, offered on Service. Service does not embed
// the kernel: that would promote every helper the rooms share (the raw
// write, the checked puts) to callers outside the engine, who must change
// state through named methods only.

// CheckRemoteInteraction is the kernel's (kernel.Kernel.CheckRemoteInteraction).
func (s *Service) CheckRemoteInteraction(what string) error {
	return s.kernel.CheckRemoteInteraction(what)
}

// Entity is the kernel's (kernel.Kernel.Entity).
func (s *Service) Entity(ctx context.Context, kind string, id string) (*core.Entity, error) {
	return s.kernel.Entity(ctx, kind, id)
}

// EntityByReference is the kernel's (kernel.Kernel.EntityByReference).
func (s *Service) EntityByReference(ctx context.Context, kind string, slugOrID string) (*core.Entity, error) {
	return s.kernel.EntityByReference(ctx, kind, slugOrID)
}

// Generation is the kernel's (kernel.Kernel.Generation).
func (s *Service) Generation() uint64 { return s.kernel.Generation() }

// HostJournal is the kernel's (kernel.Kernel.HostJournal).
func (s *Service) HostJournal(ctx context.Context) (*core.Journal, error) {
	return s.kernel.HostJournal(ctx)
}

// JoinKeyOn is the kernel's (kernel.Kernel.JoinKeyOn).
func (s *Service) JoinKeyOn(ctx context.Context) bool { return s.kernel.JoinKeyOn(ctx) }

// Live is the kernel's (kernel.Kernel.Live).
func (s *Service) Live() *kernel.Live { return s.kernel.Live() }

// Map is the kernel's (kernel.Kernel.Map).
func (s *Service) Map(ctx context.Context, id string) (*core.Map, error) {
	return s.kernel.Map(ctx, id)
}

// PatchEntity is the kernel's (kernel.Kernel.PatchEntity).
func (s *Service) PatchEntity(ctx context.Context, kind string, id string, patch core.Object) (*core.Entity, error) {
	return s.kernel.PatchEntity(ctx, kind, id, patch)
}

// PrimaryCampaign is the kernel's (kernel.Kernel.PrimaryCampaign).
func (s *Service) PrimaryCampaign(ctx context.Context) (*core.Campaign, error) {
	return s.kernel.PrimaryCampaign(ctx)
}

// Publish is the kernel's (kernel.Kernel.Publish).
func (s *Service) Publish(events ...core.Event) { s.kernel.Publish(events...) }

// RollTable is the kernel's (kernel.Kernel.RollTable).
func (s *Service) RollTable(ctx context.Context, key string, private bool) (*core.TableRolled, error) {
	return s.kernel.RollTable(ctx, key, private)
}

// SeatMessages is the kernel's (kernel.Kernel.SeatMessages).
func (s *Service) SeatMessages(ctx context.Context, seat string) ([]*core.Message, error) {
	return s.kernel.SeatMessages(ctx, seat)
}

// SetAttribute is the kernel's (kernel.Kernel.SetAttribute).
func (s *Service) SetAttribute(ctx context.Context, a core.Attribute) (*core.Attribute, error) {
	return s.kernel.SetAttribute(ctx, a)
}

// Snapshot is the kernel's (kernel.Kernel.Snapshot).
func (s *Service) Snapshot(ctx context.Context) (*core.Snapshot, error) {
	return s.kernel.Snapshot(ctx)
}

// SnapshotOn is the kernel's (kernel.Kernel.SnapshotOn).
func (s *Service) SnapshotOn(ctx context.Context, onMap string) (*core.Snapshot, error) {
	return s.kernel.SnapshotOn(ctx, onMap)
}

// TrackObject is the kernel's (kernel.Kernel.TrackObject).
func (s *Service) TrackObject(name string, objects []*core.TrackedObject) error {
	return s.kernel.TrackObject(name, objects)
}

// UpdateSettings is the kernel's (kernel.Kernel.UpdateSettings).
func (s *Service) UpdateSettings(ctx context.Context, p kernel.SettingsPatch) (core.Settings, error) {
	return s.kernel.UpdateSettings(ctx, p)
}

// ViewerMap is the kernel's (kernel.Kernel.ViewerMap).
func (s *Service) ViewerMap(seatHash string) string { return s.kernel.ViewerMap(seatHash) }
