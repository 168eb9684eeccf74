package engine

import (
	"context"
	"strings"

	"github.com/vttapp/companion/core/chat"

	"github.com/vttapp/companion/core"
)

// CreateMessage is the game master's message (the host console): its
// dice are rolled, it is stored in the loaded system's primary campaign,
// marked as the game master's (gm), and broadcast as messageCreated (a
// private one to the host console alone). It returns the stored message
// with its rolls and campaign. Players post through PlayerAccess, which
// names the speaker from their seat (speaker.go).
func (s *tableRoom) CreateMessage(ctx context.Context, m *core.Message) (*core.Message, error) {
	return s.postMessage(ctx, m, chat.MessageAuthor{Gm: true}, false)
}

// PostMessage posts a line the game master typed (the host console's
// chat): as CreateMessage, except that a /roll that cannot be rolled is
// refused with the dice engine's words, as a player's typed line is, and
// nothing is stored.
func (s *tableRoom) PostMessage(ctx context.Context, m *core.Message) (*core.Message, error) {
	return s.postMessage(ctx, m, chat.MessageAuthor{Gm: true}, true)
}

// postMessage posts a message by author. With refuseBadRoll (a line a
// player typed in a client: postMessage) a /roll or /r command whose
// expression cannot be rolled is refused with the dice engine's
// explanation (KindInvalid) and nothing is stored, so the mistake goes
// back to the sender alone instead of into everyone's log.
func (s *Kernel) postMessage(ctx context.Context, m *core.Message, author chat.MessageAuthor, refuseBadRoll bool) (*core.Message, error) {
	p := s.pin()
	if strings.TrimSpace(m.Text) == "" {
		return nil, core.Invalidf("message: 'text' is required and must not be empty")
	}
	if err := checkMessageInput(m); err != nil {
		return nil, err
	}
	if key, private, ok := tableCommand(m.Text); ok {
		if !author.Gm {
			return nil, core.Forbiddenf("tables are the game master's to roll: ask them")
		}
		rolled, err := s.RollTable(ctx, key, private)
		if err != nil {
			return nil, err
		}
		return rolled.Message, nil
	}
	out := *m
	out.Private = m.Private && author.Gm // a private roll is the game master's
	chat.ClientRoll(&out)                // what a client says it rolled is rolled again, or is chat
	if err := checkMessageText(&out); err != nil {
		return nil, err
	}
	if err := p.addressMessage(ctx, &out, author); err != nil {
		return nil, err
	}
	if err := p.signMessage(ctx, &out, author); err != nil {
		return nil, err
	}
	if !author.Gm {
		if err := s.messages.Take(author.Who.Device, 1); err != nil {
			return nil, err
		}
	}
	out.ID = core.NewID()
	out.Created = p.now().UTC()
	if out.Type == "" {
		out.Type = core.MessageChat
	}
	out.Rolls = nil
	if p.roller != nil {
		stored, raws, command, err := p.roller.RollText(out.Text)
		if err != nil {
			return nil, core.Invalidf("message: %s", err.Error())
		}
		rolls := rollResults(raws) // each decoded once, here
		if refuseBadRoll && command {
			if msg := failedRoll(rolls); msg != "" {
				return nil, core.Invalidf("%s", msg)
			}
		}
		if err := checkMessageRolls(rolls); err != nil {
			return nil, err
		}
		out.Text = stored
		out.Rolls = rolls
		if len(rolls) > 0 && command {
			out.Type = core.MessageRoll
		}
	}
	if err := p.storeMessage(ctx, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// storeMessage adds a message, rolled already, to the primary campaign's
// log and tells those who may read it (messageEvent).
func (p pinned) storeMessage(ctx context.Context, out *core.Message) error {
	if err := core.CheckEncodedSize("message", out, core.MaxMessageBytes); err != nil {
		return err
	}
	return p.write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		out.Campaign = c.ID
		if err := tx.AddMessage(out); err != nil {
			return nil, err
		}
		return []core.Event{chat.MessageEvent(out)}, nil
	})
}
