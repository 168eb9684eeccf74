package engine

import (
	"context"

	"github.com/vttapp/companion/core"
)

// GetAttribute reads an entity's attributes (getAttribute). The contract
// says the original application only echoes the request; we resolve it:
// when the request names attributes (the keys of a.Attributes), the answer
// carries each of them with the entity's value, null for one the entity does
// not have; when it names none, the answer carries all of them.
func (s *tableRoom) GetAttribute(ctx context.Context, a core.Attribute) (*core.Attribute, error) {
	if a.EntityID == "" {
		return nil, core.Invalidf("getAttribute: 'entityId' is required")
	}
	e, err := s.Entity(ctx, "", a.EntityID)
	if err != nil {
		return nil, err
	}
	out := &core.Attribute{EntityID: e.ID, Attributes: core.Object{}}
	if len(a.Attributes) == 0 {
		for k, v := range e.Attributes {
			out.Attributes[k] = cloneJSON(v)
		}
		return out, nil
	}
	for k := range a.Attributes {
		out.Attributes[k] = cloneJSON(e.Attributes[k]) // nil (JSON null) when absent
	}
	return out, nil
}

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
