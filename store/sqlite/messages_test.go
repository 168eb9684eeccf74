package sqlite

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

func TestAddMessageRoundTrip(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"))
	m := testMessage("msg1", "c1", "/roll 1d20")
	m.Type = core.MessageRoll
	m.Source = "Ann"
	m.Rolls = []core.RollResult{core.NewRollResult(json.RawMessage(`{"expression":"1d20","total":17}`))}
	put(t, s, m)
	view(t, s, func(tx core.Tx) error {
		list, err := tx.RecentMessages("c1", 30)
		if err != nil {
			return err
		}
		if len(list) != 1 || !reflect.DeepEqual(list[0], m) {
			t.Fatalf("RecentMessages = %+v, want [%+v]", list, m)
		}
		return nil
	})
}

func TestAddMessageFillsIDAndTime(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"))
	m := &core.Message{Type: core.MessageChat, Campaign: "c1", Text: "hi"}
	before := time.Now()
	put(t, s, m)
	if m.ID == "" || m.Created.Before(before.Add(-time.Second)) || m.Created.After(time.Now()) {
		t.Fatalf("AddMessage left id %q created %v", m.ID, m.Created)
	}
}

func TestAddMessageErrors(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"), testMessage("msg1", "c1", "hi"))
	err := s.Update(bg, func(tx core.Tx) error { return tx.AddMessage(testMessage("msg1", "c1", "again")) })
	wantKind(t, err, core.KindConflict, "a message with id 'msg1' already exists")
	err = s.Update(bg, func(tx core.Tx) error { return tx.AddMessage(testMessage("msg2", "nope", "hi")) })
	wantNotFound(t, err, "no campaign with id 'nope'")
	err = s.Update(bg, func(tx core.Tx) error { return tx.AddMessage(testMessage("msg2", "", "hi")) })
	wantKind(t, err, core.KindInvalid, "campaign is required")
	view(t, s, func(tx core.Tx) error {
		_, err := tx.RecentMessages("c1", -1)
		wantKind(t, err, core.KindInvalid, "must not be negative")
		_, err = tx.RecentMessages("nope", 5)
		wantNotFound(t, err, "no campaign with id 'nope'")
		list, err := tx.RecentMessages("c1", 0)
		if err != nil || list == nil || len(list) != 0 {
			t.Fatalf("RecentMessages(0) = %v, %v; want an empty slice", list, err)
		}
		return nil
	})
}

func TestRecentMessagesAreTheLastNOldestFirst(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"), testCampaign("c2"))
	// All share one timestamp, and some carry ids that sort backwards, so
	// only the insertion sequence can give the right order.
	update(t, s, func(tx core.Tx) error {
		for i := 0; i < 10; i++ {
			if err := tx.AddMessage(testMessage(fmt.Sprintf("z%02d", 10-i), "c1", fmt.Sprintf("text %d", i))); err != nil {
				return err
			}
			if err := tx.AddMessage(testMessage(fmt.Sprintf("other%d", i), "c2", "elsewhere")); err != nil {
				return err
			}
		}
		return nil
	})
	// A later message with an earlier clock time still comes last.
	late := testMessage("late", "c1", "text 10")
	late.Created = testTime.Add(-time.Hour)
	put(t, s, late)

	view(t, s, func(tx core.Tx) error {
		list, err := tx.RecentMessages("c1", 3)
		if err != nil {
			return err
		}
		got := []string{}
		for _, m := range list {
			got = append(got, m.Text)
		}
		if want := []string{"text 8", "text 9", "text 10"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("RecentMessages(c1, 3) = %v, want %v", got, want)
		}
		all, err := tx.RecentMessages("c1", 100)
		if err != nil {
			return err
		}
		if len(all) != 11 || all[0].Text != "text 0" {
			t.Fatalf("RecentMessages(c1, 100) returned %d messages starting with %q", len(all), all[0].Text)
		}
		return nil
	})
}

func TestEachMessageStreamsTheLogOldestFirst(t *testing.T) {
	s := newStore(t)
	put(t, s, testCampaign("c1"), testCampaign("c2"))
	for i := 0; i < 5; i++ {
		put(t, s, testMessage(fmt.Sprintf("m%d", i), "c1", fmt.Sprintf("text %d", i)))
	}
	put(t, s, testMessage("other", "c2", "elsewhere"))
	view(t, s, func(tx core.Tx) error {
		var ids []string
		if err := tx.EachMessage("c1", func(m *core.Message) error { ids = append(ids, m.ID); return nil }); err != nil {
			return err
		}
		if !reflect.DeepEqual(ids, []string{"m0", "m1", "m2", "m3", "m4"}) {
			t.Errorf("EachMessage gave %v", ids)
		}
		stop := fmt.Errorf("enough")
		n := 0
		err := tx.EachMessage("c1", func(*core.Message) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("an error from fn: %v after %d", err, n)
		}
		wantNotFound(t, tx.EachMessage("nope", func(*core.Message) error { return nil }), "no campaign with id 'nope'")
		return nil
	})
}
