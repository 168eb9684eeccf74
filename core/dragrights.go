package core

import (
	"context"
	"strings"
)

// Token-mode rights (remote interaction "token"). The real web client lets
// a player pick "their" token in its settings but never tells the server
// which one, so the server decides, per connection:
//
//   - a friendly token that is not a player character's may be moved by
//     anyone (a summon, a mount, a hireling), as the real client allows;
//   - a player character's token (Token.Player, or a reference under
//     /player/, the real client's test) belongs to the first connection
//     that claims it: by naming it in clientUpdated (tokenId) or by
//     dragging it. A connection owns at most one such token, and the claim
//     ends when the connection goes away;
//   - hostile and neutral tokens are the game master's.
//
// In mode "all" anyone moves any token that is not locked or hidden; in
// "none" no one does.

// IsPlayerToken reports whether a token stands for a player character.
func IsPlayerToken(t *Token) bool {
	return t.Player || strings.Contains(t.Reference, "/player/") || (t.Combatant != nil && t.Combatant.Player)
}

// mayMove reports whether the client from may drag tok under the current
// interaction mode, claiming a player token for it in token mode. The
// caller holds d.mu.
func (d *Drags) mayMove(from string, tok *Token) bool {
	switch d.svc.live.Settings().Interaction {
	case InteractionAll:
		return true
	case InteractionToken:
	default:
		return false
	}
	if tok.Role != RoleFriendly {
		return false
	}
	if !IsPlayerToken(tok) {
		return true
	}
	if owner, ok := d.owners[tok.ID]; ok {
		return owner == from
	}
	for _, owner := range d.owners {
		if owner == from {
			return false // this client already plays another character
		}
	}
	d.owners[tok.ID] = from
	return true
}

// Choose records the token a client says it plays (clientUpdated's
// tokenId, an extension the real client does not send): in token mode that
// client alone may move it. An empty id gives up the client's token. A
// token another connected client plays is refused.
func (d *Drags) Choose(ctx context.Context, clientID, tokenID string) error {
	if tokenID != "" {
		// A token players do not see does not exist for them.
		if _, err := d.svc.Players().Token(ctx, tokenID); err != nil {
			return err
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if owner, ok := d.owners[tokenID]; ok && tokenID != "" && owner != clientID {
		return Conflictf("token '%s' is already played from another client", Clip(tokenID))
	}
	for id, owner := range d.owners {
		if owner == clientID {
			delete(d.owners, id)
		}
	}
	if tokenID != "" {
		d.owners[tokenID] = clientID
	}
	return nil
}

// PlayedBy returns the token a client plays in token mode ("" when none).
func (d *Drags) PlayedBy(clientID string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, owner := range d.owners {
		if owner == clientID {
			return id
		}
	}
	return ""
}
