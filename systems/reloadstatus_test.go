package systems

import (
	"errors"
	"testing"
	"time"
)

func TestReloadStatusNilRecordsNothing(t *testing.T) {
	var s *ReloadStatus
	s.Watching("x")
	s.Failed(errors.New("boom"))
	s.Reloaded("1", time.Millisecond)
	if dir, last := s.Last(); dir != "" || last != nil {
		t.Fatalf("nil status = %q, %+v", dir, last)
	}
}
