package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
)

// SetAttribute merges a.Attributes into the entity's attributes (RFC 7386:
// null removes a key) as one write, with the same rules and events as
// PATCH (entityUpdated, and a unique entity's combatants kept in step). It
// returns the entity's attributes after the write.
func (s *Kernel) SetAttribute(ctx context.Context, a core.Attribute) (*core.Attribute, error) {
	if a.EntityID == "" {
		return nil, core.Invalidf("setAttribute: 'entityId' is required")
	}
	if a.Attributes == nil {
		return nil, core.Invalidf("setAttribute: 'attributes' must be an object of the values to write")
	}
	e, err := s.PatchEntity(ctx, "", a.EntityID, core.Object{"attributes": a.Attributes})
	if err != nil {
		return nil, err
	}
	return &core.Attribute{EntityID: e.ID, Attributes: e.Attributes}, nil
}
