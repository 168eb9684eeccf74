package kernel

import (
	"context"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
)

// WriteMessage posts a message by author. With refuseBadRoll (a line a
// player typed in a client: PostMessage) a /roll or /r command whose
// expression cannot be rolled is refused with the dice engine's
// explanation (KindInvalid) and nothing is stored, so the mistake goes
// back to the sender alone instead of into everyone's log.
func (s *Kernel) WriteMessage(ctx context.Context, m *core.Message, author chat.MessageAuthor, refuseBadRoll bool) (*core.Message, error) {
	p := s.Pin()
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
		if err := s.Messages.Take(author.Who.Device, 1); err != nil {
			return nil, err
		}
	}
	out.ID = core.NewID()
	out.Created = p.Now().UTC()
	if out.Type == "" {
		out.Type = core.MessageChat
	}
	out.Rolls = nil
	if p.Roller != nil {
		stored, raws, command, err := p.Roller.RollText(out.Text)
		if err != nil {
			return nil, core.Invalidf("message: %s", err.Error())
		}
		rolls := RollResults(raws) // each decoded once, here
		if refuseBadRoll && command {
			if msg := FailedRoll(rolls); msg != "" {
				return nil, core.Invalidf("%s", msg)
			}
		}
		if err := CheckMessageRolls(rolls); err != nil {
			return nil, err
		}
		out.Text = stored
		out.Rolls = rolls
		if len(rolls) > 0 && command {
			out.Type = core.MessageRoll
		}
	}
	if err := p.StoreMessage(ctx, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// StoreMessage adds a message, rolled already, to the primary campaign's
// log and tells those who may read it (messageEvent).
func (p Pinned) StoreMessage(ctx context.Context, out *core.Message) error {
	if err := core.CheckEncodedSize("message", out, core.MaxMessageBytes); err != nil {
		return err
	}
	return p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
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
