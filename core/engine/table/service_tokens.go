package table

import (
	"context"

	"github.com/vttapp/companion/core"
)

// Token returns the token with id.
func (s *TableRoom) Token(ctx context.Context, id string) (*core.Token, error) {
	return s.ReadToken(ctx, id, false)
}
