//go:build unix

package sqlite

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// The crash test: a child process (this test binary, re-executed) writes as
// fast as it can and prints every write the store acknowledged; the parent
// SIGKILLs it at a random moment, reopens the database and checks that it is
// intact, that every acknowledged write is there and that no transaction is
// there in part. Several rounds kill the child at different points.

const (
	crashEnvDB    = "COMPANION_CRASH_DB"
	crashEnvRound = "COMPANION_CRASH_ROUND"
	crashCampaign = "crash-campaign"
	crashMap      = "crash-map"

	batchTokens   = 5
	batchEntities = 3
	batchMessages = 2
	bigBatch      = 100
)

func TestCrashKeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test kills child processes; skipped with -short")
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)
	path := filepath.Join(t.TempDir(), "companion.db")

	rounds, maxAcks := 6, 600
	if raceEnabled {
		rounds, maxAcks = 2, 150
	}
	inFlightSeen := 0
	for round := 1; round <= rounds; round++ {
		acks := runAndKillChild(t, path, round, 20+rng.IntN(maxAcks), rng)
		if len(acks) == 0 {
			t.Fatalf("round %d: the child acknowledged nothing before it was killed", round)
		}
		if _, err := os.Stat(path + "-wal"); err != nil {
			t.Fatalf("round %d: no WAL file after the kill (%v): the child was not killed mid-work", round, err)
		}
		inFlightSeen += verifyAfterCrash(t, path, round, acks)
	}
	t.Logf("%d rounds; %d killed transactions had committed without being acknowledged (allowed)", rounds, inFlightSeen)
}

// ack is one acknowledged write, as printed by the child.
type ack struct {
	kind string // entity, batch, big, move, message
	id   string
	x    float64 // move: the x the token was given
}

// runAndKillChild starts the writer, kills it with SIGKILL after killAfter
// acknowledged writes (and a random moment more) and returns the writes it
// acknowledged.
func runAndKillChild(t *testing.T, path string, round, killAfter int, rng *rand.Rand) []ack {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnvDB+"="+path, crashEnvRound+"="+strconv.Itoa(round))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()

	var acks []ack
	r := bufio.NewReader(stdout)
	ready := false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("round %d: the child stopped before it was killed (%v); stderr:\n%s", round, err, stderr.String())
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "READY" {
			ready = true
			continue
		}
		if a, ok := parseAck(line); ok && ready {
			acks = append(acks, a)
		}
		if len(acks) >= killAfter {
			break
		}
	}
	// Give the child a random extra moment so that the kill does not always
	// land right after a print.
	time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed = true
	// Everything the child printed before it died was acknowledged; a last
	// line cut short by the kill (no newline) was not.
	rest, _ := io.ReadAll(r)
	lines := strings.Split(string(rest), "\n")
	for _, line := range lines[:len(lines)-1] {
		if a, ok := parseAck(line); ok {
			acks = append(acks, a)
		}
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("round %d: the child ended with %v, not by SIGKILL; stderr:\n%s", round, err, stderr.String())
	}
	t.Logf("round %d: killed after %d acknowledged writes", round, len(acks))
	return acks
}

func parseAck(line string) (ack, bool) {
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "ACK" {
		return ack{}, false
	}
	a := ack{kind: f[1], id: f[2]}
	if a.kind == "move" {
		if len(f) != 4 {
			return ack{}, false
		}
		x, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			return ack{}, false
		}
		a.x = x
	}
	return a, true
}

// verifyAfterCrash reopens the database and checks it. It returns how many
// transactions were found committed without an acknowledgement (the child
// died between the commit and its print).
func verifyAfterCrash(t *testing.T, path string, round int, acks []ack) int {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("round %d: reopen after the kill: %v", round, err)
	}
	defer s.Close()

	var integrity string
	if err := s.writer.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil {
		t.Fatal(err)
	}
	if integrity != "ok" {
		t.Fatalf("round %d: integrity_check: %s", round, integrity)
	}
	checkNoOrphans(t, s)

	lastX := map[string]float64{}
	view(t, s, func(tx core.Tx) error {
		for _, a := range acks {
			switch a.kind {
			case "entity":
				if _, err := tx.Entity(a.id); err != nil {
					t.Fatalf("round %d: acknowledged entity %s: %v", round, a.id, err)
				}
			case "message":
				if n := countRowsWithID(t, s, "messages", a.id); n != 1 {
					t.Fatalf("round %d: acknowledged message %s is missing", round, a.id)
				}
			case "batch":
				if _, err := tx.Map(a.id + "-map"); err != nil {
					t.Fatalf("round %d: acknowledged batch %s lost its map: %v", round, a.id, err)
				}
			case "big":
				for k := 0; k < bigBatch; k++ {
					if _, err := tx.Entity(fmt.Sprintf("%s-%d", a.id, k)); err != nil {
						t.Fatalf("round %d: acknowledged big batch %s: %v", round, a.id, err)
					}
				}
			case "move":
				lastX[a.id] = a.x
			}
		}
		for id, x := range lastX {
			tok, err := tx.Token(id)
			if err != nil {
				t.Fatalf("round %d: moved token %s: %v", round, id, err)
			}
			// A later move may have committed unacknowledged; an earlier
			// position would mean an acknowledged move was lost.
			if tok.X < x {
				t.Fatalf("round %d: token %s is at x=%v, but the move to %v was acknowledged", round, id, tok.X, x)
			}
		}
		return nil
	})

	acked := map[string]bool{}
	for _, a := range acks {
		acked[a.id] = true
	}
	unacknowledged := 0
	// All or nothing: every batch of this round found in the database is
	// complete, acknowledged or not.
	prefix := fmt.Sprintf("r%d-", round)
	for batch, n := range groupRows(t, s, prefix+"b") {
		if want := 1 + batchTokens + batchEntities + batchMessages; n != want {
			t.Fatalf("round %d: batch %s is in the database in part: %d of %d rows", round, batch, n, want)
		}
		if !acked[batch] {
			unacknowledged++
		}
	}
	for batch, n := range groupRows(t, s, prefix+"g") {
		if n != bigBatch {
			t.Fatalf("round %d: big batch %s is in the database in part: %d of %d entities", round, batch, n, bigBatch)
		}
		if !acked[batch] {
			unacknowledged++
		}
	}
	return unacknowledged
}

func countRowsWithID(t *testing.T, s *Store, table, id string) int {
	t.Helper()
	var n int
	if err := s.writer.QueryRow("SELECT count(*) FROM "+table+" WHERE id = ?", id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// groupRows counts the rows of every table whose id starts with prefix,
// grouped by the batch part of the id (ids are "<batch>-<row>").
func groupRows(t *testing.T, s *Store, prefix string) map[string]int {
	t.Helper()
	groups := map[string]int{}
	for _, table := range []string{"entities", "maps", "tokens", "messages"} {
		// GLOB is case-sensitive, so SQLite can use the id index for it.
		rows, err := s.writer.Query("SELECT id FROM "+table+" WHERE id GLOB ? || '*'", prefix)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			batch, _, _ := strings.Cut(id[len(prefix):], "-")
			groups[prefix+batch]++
		}
		rows.Close()
	}
	return groups
}

// TestCrashChild is the writer of the crash test; it only runs when the
// parent test starts it.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnvDB)
	if path == "" {
		t.Skip("the child process of TestCrashKeepsAcknowledgedWrites")
	}
	round := os.Getenv(crashEnvRound)
	s, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	err = s.Update(bg, func(tx core.Tx) error {
		if err := tx.PutCampaign(testCampaign(crashCampaign)); err != nil {
			return err
		}
		if _, err := tx.Map(crashMap); err == nil {
			return nil
		}
		return tx.PutMap(testMap(crashMap, crashCampaign, "crash-t0", "crash-t1", "crash-t2"))
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var x float64
	view(t, s, func(tx core.Tx) error {
		for _, id := range []string{"crash-t0", "crash-t1", "crash-t2"} {
			tok, err := tx.Token(id)
			if err != nil {
				return err
			}
			x = max(x, tok.X)
		}
		return nil
	})
	fmt.Println("READY")

	deadline := time.Now().Add(60 * time.Second) // never outlive a lost parent for long
	for i := 0; time.Now().Before(deadline); i++ {
		var line string
		var err error
		switch i % 5 {
		case 0:
			id := fmt.Sprintf("r%s-e%d", round, i)
			err = s.Update(bg, func(tx core.Tx) error {
				return tx.PutEntity(testEntity(id, "monster", "Goblin "+id, crashCampaign))
			})
			line = "ACK entity " + id
		case 1:
			batch := fmt.Sprintf("r%s-b%d", round, i)
			err = s.Update(bg, func(tx core.Tx) error { return writeBatch(tx, batch) })
			line = "ACK batch " + batch
		case 2:
			x++
			id := fmt.Sprintf("crash-t%d", i%3)
			err = s.Update(bg, func(tx core.Tx) error {
				tok, err := tx.Token(id)
				if err != nil {
					return err
				}
				tok.X = x
				return tx.PutToken(tok)
			})
			line = fmt.Sprintf("ACK move %s %v", id, x)
		case 3:
			id := fmt.Sprintf("r%s-m%d", round, i)
			err = s.Update(bg, func(tx core.Tx) error {
				return tx.AddMessage(testMessage(id, crashCampaign, "message "+id))
			})
			line = "ACK message " + id
		case 4:
			batch := fmt.Sprintf("r%s-g%d", round, i)
			err = s.Update(bg, func(tx core.Tx) error {
				for k := 0; k < bigBatch; k++ {
					e := testEntity(fmt.Sprintf("%s-%d", batch, k), "spell", "Spell", crashCampaign)
					if err := tx.PutEntity(e); err != nil {
						return err
					}
				}
				return nil
			})
			line = "ACK big " + batch
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		// One write(2) per line: the parent sees whole lines or a cut one.
		os.Stdout.WriteString(line + "\n")
	}
	fmt.Fprintln(os.Stderr, "the parent never killed the child")
	os.Exit(3)
}

// writeBatch writes one multi-row transaction: a map with its tokens, some
// entities and some messages, every id prefixed by batch.
func writeBatch(tx core.Tx, batch string) error {
	ids := make([]string, batchTokens)
	for k := range ids {
		ids[k] = fmt.Sprintf("%s-t%d", batch, k)
	}
	if err := tx.PutMap(testMap(batch+"-map", crashCampaign, ids...)); err != nil {
		return err
	}
	for k := 0; k < batchEntities; k++ {
		if err := tx.PutEntity(testEntity(fmt.Sprintf("%s-e%d", batch, k), "npc", "NPC", crashCampaign)); err != nil {
			return err
		}
	}
	for k := 0; k < batchMessages; k++ {
		if err := tx.AddMessage(testMessage(fmt.Sprintf("%s-m%d", batch, k), crashCampaign, "batch message")); err != nil {
			return err
		}
	}
	return nil
}
