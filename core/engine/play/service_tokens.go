package play

import (
	"context"

	"github.com/vttapp/companion/core"
)

// PutToken replaces a token. As the contract says, the body's id is not
// checked against the path: the body wins (an empty body id means the path
// id). The token must exist; it stays on its map.
func (s *PlayRoom) PutToken(ctx context.Context, pathID string, t *core.Token) (*core.Token, error) {
	return s.PutTokenChecked(ctx, pathID, t, false, nil)
}

// PatchToken merges patch into a token, as PATCH and updateToken do. It
// does not animate and ignores the remote-interaction setting.
func (s *PlayRoom) PatchToken(ctx context.Context, id string, patch core.Object) (*core.Token, error) {
	return s.PatchTokenChecked(ctx, id, patch, false, nil)
}
