package hub

import (
	"bytes"
	"errors"
	"net"
	"testing"
	"time"
)

func TestWSQueueIsBoundedAndOrdered(t *testing.T) {
	q := newSendQueue(3)
	for i, m := range []string{"a", "b", "c"} {
		if !q.push(outMsg{data: []byte(m)}) {
			t.Fatalf("push %d refused below the limit", i)
		}
	}
	if q.push(outMsg{data: []byte("d")}) {
		t.Fatal("push past the limit accepted")
	}
	select {
	case <-q.ready:
	default:
		t.Fatal("no wake-up after a push")
	}
	got := q.take(nil)
	if len(got) != 3 || string(got[0].data) != "a" || string(got[2].data) != "c" {
		t.Fatalf("take = %q", got)
	}
	if q.len() != 0 || !q.push(outMsg{data: []byte("e")}) {
		t.Fatal("the queue did not empty on take")
	}
	q.signal(signalPing)
	q.signal(signalClose)
	if s := q.takeSignals(); s != signalPing|signalClose {
		t.Fatalf("signals %b", s)
	}
	if s := q.takeSignals(); s != 0 {
		t.Fatalf("signals not lowered: %b", s)
	}
}

func TestWSBatchConnHoldsFramesUntilFlush(t *testing.T) {
	server, client := net.Pipe()
	defer client.Close()
	bc := &batchConn{Conn: server}
	got := make(chan []byte, 4)
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := client.Read(buf)
			if err != nil {
				close(got)
				return
			}
			got <- bytes.Clone(buf[:n])
		}
	}()
	if _, err := bc.Write([]byte("direct")); err != nil {
		t.Fatal(err)
	}
	if m := <-got; string(m) != "direct" {
		t.Fatalf("write-through got %q", m)
	}
	bc.beginBatch()
	bc.Write([]byte("one|"))
	bc.Write([]byte("two"))
	select {
	case m := <-got:
		t.Fatalf("%q reached the socket before the flush", m)
	case <-time.After(20 * time.Millisecond):
	}
	if err := bc.flush(time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if m := <-got; string(m) != "one|two" {
		t.Fatalf("flush wrote %q, want both frames in one write", m)
	}
	// Dropped, a connection may write until its allowance ends (the frame
	// under way, the close frame), with no deadline past it.
	by := time.Now().Add(time.Hour)
	bc.drop(by)
	if err := bc.SetWriteDeadline(time.Now().Add(2 * time.Hour)); err != nil || !bc.deadline.Equal(by) {
		t.Fatalf("a dropped connection's deadline: %v %v, want %v", bc.deadline, err, by)
	}
	if _, err := bc.Write([]byte("close")); err != nil {
		t.Fatalf("write within the allowance: %v", err)
	}
	if m := <-got; string(m) != "close" {
		t.Fatalf("got %q", m)
	}
	bc.drop(time.Now())
	if _, err := bc.Write([]byte("late")); !errors.Is(err, errInterrupted) {
		t.Fatalf("write after the allowance: %v", err)
	}
	if err := bc.SetWriteDeadline(time.Now().Add(time.Hour)); !errors.Is(err, errInterrupted) {
		t.Fatalf("a dropped connection past its allowance accepted a new deadline: %v", err)
	}
	server.Close()
	if _, ok := <-got; ok {
		t.Fatal("data after close")
	}
}

func TestWSBatchConnCoarsensDeadlines(t *testing.T) {
	server, client := net.Pipe()
	defer client.Close()
	defer server.Close()
	bc := &batchConn{Conn: server}
	base := time.Now().Add(10 * time.Second)
	bc.SetWriteDeadline(base)
	bc.SetWriteDeadline(base.Add(500 * time.Millisecond)) // within a tenth of 10 s: kept
	if !bc.deadline.Equal(base) {
		t.Fatalf("deadline moved by less than the slack: %v", bc.deadline.Sub(base))
	}
	bc.SetWriteDeadline(base.Add(2 * time.Second))
	if !bc.deadline.Equal(base.Add(2 * time.Second)) {
		t.Fatal("a deadline later by more than the slack was not passed on")
	}
	// A short allowance has a short slack: 100 ms later than a deadline
	// 200 ms away is passed on.
	soon := time.Now().Add(100 * time.Millisecond)
	bc.SetWriteDeadline(soon)
	bc.SetWriteDeadline(soon.Add(100 * time.Millisecond))
	if !bc.deadline.Equal(soon.Add(100 * time.Millisecond)) {
		t.Fatal("a short deadline lagged by more than a tenth of its allowance")
	}
	past := time.Now().Add(-time.Second)
	bc.SetWriteDeadline(past) // earlier: always passed on
	if !bc.deadline.Equal(past) {
		t.Fatal("an earlier deadline was not passed on")
	}
	if _, err := bc.Write([]byte("x")); err == nil {
		t.Fatal("a write past the deadline succeeded: the deadline did not reach the socket")
	}
}
