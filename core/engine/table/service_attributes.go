package table

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// GetAttribute reads an entity's attributes (getAttribute). The contract
// says the original application only echoes the request; we resolve it:
// when the request names attributes (the keys of a.Attributes), the answer
// carries each of them with the entity's value, null for one the entity does
// not have; when it names none, the answer carries all of them.
func (s *TableRoom) GetAttribute(ctx context.Context, a core.Attribute) (*core.Attribute, error) {
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
			out.Attributes[k] = kernel.CloneJSON(v)
		}
		return out, nil
	}
	for k := range a.Attributes {
		out.Attributes[k] = kernel.CloneJSON(e.Attributes[k]) // nil (JSON null) when absent
	}
	return out, nil
}
