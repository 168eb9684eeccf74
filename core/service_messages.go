package core

import (
	"context"
	"strings"
)

// CreateMessage rolls the dice in m's text, stores it in the loaded system's
// primary campaign and broadcasts messageCreated. It returns the stored
// message with its rolls and campaign.
func (s *Service) CreateMessage(ctx context.Context, m *Message) (*Message, error) {
	return s.createMessage(ctx, m, false)
}

// PostMessage is CreateMessage for a line a player typed in a client: a
// /roll or /r command whose expression cannot be rolled is refused with the
// dice engine's explanation (KindInvalid) and nothing is stored, so the
// mistake goes back to the sender alone instead of into everyone's log.
func (s *Service) PostMessage(ctx context.Context, m *Message) (*Message, error) {
	return s.createMessage(ctx, m, true)
}

func (s *Service) createMessage(ctx context.Context, m *Message, refuseBadRoll bool) (*Message, error) {
	p := s.pin()
	if strings.TrimSpace(m.Text) == "" {
		return nil, Invalidf("message: 'text' is required and must not be empty")
	}
	if err := checkMessageInput(m); err != nil {
		return nil, err
	}
	out := *m
	out.ID = NewID()
	out.Created = p.now().UTC()
	if out.Type == "" {
		out.Type = MessageChat
	}
	// A roll or table-roll message already carries its result as JSON
	// text: rolling it again would read nested arrays as [[...]] dice.
	alreadyRolled := out.Type == MessageRoll || out.Type == "tableRoll"
	if p.roller != nil && !alreadyRolled {
		stored, raws, command, err := p.roller.RollText(m.Text)
		if err != nil {
			return nil, Invalidf("message: %s", err.Error())
		}
		rolls := rollResults(raws) // each decoded once, here
		if refuseBadRoll && command {
			if msg := failedRoll(rolls); msg != "" {
				return nil, Invalidf("%s", msg)
			}
		}
		if err := checkMessageRolls(rolls); err != nil {
			return nil, err
		}
		out.Text = stored
		out.Rolls = rolls
		if len(rolls) > 0 && command {
			out.Type = MessageRoll
		}
	}
	if err := p.storeMessage(ctx, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// storeMessage adds a message, rolled already, to the primary campaign's
// log and tells clients (a private one only the game master).
func (p pinned) storeMessage(ctx context.Context, out *Message) error {
	if err := checkEncodedSize("message", out, MaxMessageBytes); err != nil {
		return err
	}
	return p.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		out.Campaign = c.ID
		if err := tx.AddMessage(out); err != nil {
			return nil, err
		}
		if out.Private {
			return []Event{{Name: EventMessageCreated, Data: HostOnly(out)}}, nil
		}
		return []Event{{Name: EventMessageCreated, Data: out}}, nil
	})
}
