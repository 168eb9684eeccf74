package core

import (
	"context"
	"strings"
)

// CreateMessage rolls the dice in m's text, stores it in the loaded system's
// primary campaign and broadcasts messageCreated. It returns the stored
// message with its rolls and campaign.
func (s *Service) CreateMessage(ctx context.Context, m *Message) (*Message, error) {
	if strings.TrimSpace(m.Text) == "" {
		return nil, Invalidf("message: 'text' is required and must not be empty")
	}
	out := *m
	out.ID = NewID()
	out.Created = s.now().UTC()
	if out.Type == "" {
		out.Type = MessageChat
	}
	// A roll or table-roll message already carries its result as JSON
	// text: rolling it again would read nested arrays as [[...]] dice.
	alreadyRolled := out.Type == MessageRoll || out.Type == "tableRoll"
	if s.roller != nil && !alreadyRolled {
		stored, rolls, err := s.roller.RollText(m.Text)
		if err != nil {
			return nil, Invalidf("message: %s", err.Error())
		}
		out.Text = stored
		out.Rolls = rolls
		if len(rolls) > 0 && isRollCommand(m.Text) {
			out.Type = MessageRoll
		}
	}
	err := s.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := s.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		out.Campaign = c.ID
		if err := tx.AddMessage(&out); err != nil {
			return nil, err
		}
		if out.Private {
			return []Event{{Name: EventMessageCreated, Data: HostOnly(&out)}}, nil
		}
		return []Event{{Name: EventMessageCreated, Data: &out}}, nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// isRollCommand reports whether text is a /roll or /r chat command, in any
// case and followed by any white space, as the dice engine reads it.
func isRollCommand(text string) bool {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return false
	}
	cmd := strings.ToLower(fields[0])
	return cmd == "/roll" || cmd == "/r"
}
