package core

import "context"

// Token returns the token with id.
func (s *Service) Token(ctx context.Context, id string) (*Token, error) {
	return s.token(ctx, id, false)
}

func (s *Service) token(ctx context.Context, id string, players bool) (*Token, error) {
	var t *Token
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		t, err = tokenFor(tx, id, players)
		return err
	})
	return t, err
}

// PutToken replaces a token. As the contract says, the body's id is not
// checked against the path: the body wins (an empty body id means the path
// id). The token must exist; it stays on its map.
func (s *Service) PutToken(ctx context.Context, pathID string, t *Token) (*Token, error) {
	return s.putToken(ctx, pathID, t, false)
}

func (s *Service) putToken(ctx context.Context, pathID string, t *Token, players bool) (*Token, error) {
	id := t.ID
	if id == "" {
		id = pathID
	}
	return s.replaceToken(ctx, id, wholeDocument(t), players)
}

// PatchToken merges patch into a token, as PATCH and updateToken do. It
// does not animate and ignores the remote-interaction setting.
func (s *Service) PatchToken(ctx context.Context, id string, patch Object) (*Token, error) {
	return s.patchToken(ctx, id, patch, false)
}

func (s *Service) patchToken(ctx context.Context, id string, patch Object, players bool) (*Token, error) {
	if err := checkPatchID(patch, id); err != nil {
		return nil, err
	}
	return s.replaceToken(ctx, id, mergePatch[Token](patch), players)
}

// replaceToken stores a client's edit of a token, its server-owned fields
// kept.
func (s *Service) replaceToken(ctx context.Context, id string, e edit[Token], players bool) (*Token, error) {
	return replaceStored(s, ctx, e,
		func(tx Tx) (*Token, error) { return tokenFor(tx, id, players) },
		func(next, old *Token) { next.restoreServerOwned(old, players) },
		pinned.storeToken)
}

func (s pinned) storeToken(tx Tx, t *Token) ([]Event, error) {
	t.Normalize()
	if t.Role != "" && t.Role != RoleHostile && t.Role != RoleFriendly && t.Role != RoleNeutral {
		return nil, Invalidf("token: role must be hostile, friendly or neutral, not '%s'", Clip(t.Role))
	}
	t.Size, t.Health, t.Hitpoints, t.Bloodied, t.Dead = "", nil, nil, nil, nil // derived, never stored
	if err := checkEncodedSize("token", t, MaxTokenBytes); err != nil {
		return nil, err
	}
	if err := tx.PutToken(t); err != nil {
		return nil, err
	}
	shown, err := s.playerTokenIn(tx, t)
	if err != nil {
		return nil, err
	}
	return []Event{{Name: EventTokenUpdated, Data: shown}}, nil
}
