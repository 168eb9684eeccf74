package kernel

import (
	"encoding/json"

	"github.com/vttapp/companion/core"
)

// checkMessageInput bounds a message as a client sent it, before its dice
// are rolled.
func checkMessageInput(m *core.Message) error {
	for _, f := range []struct{ name, value string }{
		{"id", m.ID}, {"type", m.Type}, {"source", m.Source}, {"color", m.Color}, {"creature", m.Creature},
	} {
		if len(f.value) > core.MaxMessageField {
			return core.TooLarge("message: '"+f.name+"'", len(f.value), core.MaxMessageField)
		}
	}
	limit := core.MaxMessageText
	if m.Type == core.MessageRoll || m.Type == "tableRoll" {
		// An already rolled message carries its result as its text.
		limit = core.MaxMessageRolls
	}
	if len(m.Text) > limit {
		return core.TooLarge("message: 'text'", len(m.Text), limit)
	}
	return nil
}

// checkMessageText bounds the text of a message once it is known to be
// words or a command (a roll sent as already rolled may be longer until
// clientRoll has made its command of it).
func checkMessageText(m *core.Message) error {
	if len(m.Text) > core.MaxMessageText {
		return core.TooLarge("message: 'text'", len(m.Text), core.MaxMessageText)
	}
	return nil
}

// CheckMessageRolls bounds what rolling a message's dice produced: the
// dice rolled, and the size of their results.
func CheckMessageRolls(rolls []core.RollResult) error {
	size, dice := 0, 0
	for _, r := range rolls {
		size += r.Size()
		dice += r.Dice()
	}
	if dice > core.MaxMessageDice {
		return core.TooLargef("message: it rolls %d dice, more than the limit of %d in one message; roll them in several messages", dice, core.MaxMessageDice)
	}
	if size > core.MaxMessageRolls {
		return core.TooLarge("message: its dice results", size, core.MaxMessageRolls)
	}
	return nil
}

// checkEntitySize bounds an entity and its attributes.
func checkEntitySize(e *core.Entity) error {
	if err := core.CheckEncodedSize("entity: 'attributes'", e.Attributes, core.MaxAttributesBytes); err != nil {
		return err
	}
	return core.CheckEncodedSize("entity", e, core.MaxEntityBytes)
}

// checkPointer bounds the strings of a pointer a client moves: it is
// broadcast to every client many times a second.
func checkPointer(p *core.Pointer) error {
	if len(p.ID) > core.MaxTrackedField {
		return core.TooLarge("pointerUpdated: 'id'", len(p.ID), core.MaxTrackedField)
	}
	if len(p.Color) > core.MaxTrackedField {
		return core.TooLarge("pointerUpdated: 'color'", len(p.Color), core.MaxTrackedField)
	}
	return nil
}

// checkTrackedObject bounds the strings of a tracked object.
func checkTrackedObject(o *core.TrackedObject) error {
	if id, ok := o.ID.(string); ok && len(id) > core.MaxTrackedField {
		return core.TooLarge("tracked object: 'id'", len(id), core.MaxTrackedField)
	}
	if len(o.Type) > core.MaxTrackedField {
		return core.TooLarge("tracked object: 'type'", len(o.Type), core.MaxTrackedField)
	}
	return nil
}

// trimSnapshotMessages leaves out the oldest of the recent messages (they
// come oldest first) until their JSON fits MaxSnapshotMessages.
func trimSnapshotMessages(messages []*core.Message) []*core.Message {
	size := 0
	for i := len(messages) - 1; i >= 0; i-- {
		data, err := json.Marshal(messages[i])
		if err != nil {
			return messages[i+1:]
		}
		size += len(data) + 1
		if size > core.MaxSnapshotMessages {
			return messages[i+1:]
		}
	}
	return messages
}
