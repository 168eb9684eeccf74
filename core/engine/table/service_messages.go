package table

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
)

// CreateMessage is the game master's message (the host console): its
// dice are rolled, it is stored in the loaded system's primary campaign,
// marked as the game master's (gm), and broadcast as messageCreated (a
// private one to the host console alone). It returns the stored message
// with its rolls and campaign. Players post through PlayerAccess, which
// names the speaker from their seat (speaker.go).
func (s *TableRoom) CreateMessage(ctx context.Context, m *core.Message) (*core.Message, error) {
	return s.WriteMessage(ctx, m, chat.MessageAuthor{Gm: true}, false)
}

// PostMessage posts a line the game master typed (the host console's
// chat): as CreateMessage, except that a /roll that cannot be rolled is
// refused with the dice engine's words, as a player's typed line is, and
// nothing is stored.
func (s *TableRoom) PostMessage(ctx context.Context, m *core.Message) (*core.Message, error) {
	return s.WriteMessage(ctx, m, chat.MessageAuthor{Gm: true}, true)
}
