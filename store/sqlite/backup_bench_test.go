package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
)

// BenchmarkWriteStallDuringBackup measures what play pays for a backup of
// a large database: a writer commits one small change after another (a
// token move's worth: one Update, fsync included) while BackupInto copies
// the database, and the same writer runs as long again without a backup,
// in the same run. Reported: the backup's time, the writes' worst and
// 99th-percentile latency with and without the backup, and their ratios.
//
// COMPANION_BACKUP_BENCH_ENTITIES sets the size (default 50 000 SRD-sized
// monsters, about 150 MB). Run it with -benchtime=1x.
func BenchmarkWriteStallDuringBackup(b *testing.B) {
	n := 50000
	if v, err := strconv.Atoi(os.Getenv("COMPANION_BACKUP_BENCH_ENTITIES")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "companion.db")
	s, _, err := open(ctx, path, defaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	err = s.Update(ctx, func(tx core.Tx) error {
		for i := 0; i < n; i++ {
			if err := tx.PutEntity(monster(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	size := int64(0)
	for _, f := range []string{path, path + "-wal"} {
		if info, err := os.Stat(f); err == nil {
			size += info.Size()
		}
	}
	moving := testEntity("moving", "monster", "Moving", "")
	write := func() time.Duration {
		start := time.Now()
		if err := s.Update(ctx, func(tx core.Tx) error { return tx.PutEntity(moving) }); err != nil {
			b.Error(err)
		}
		return time.Since(start)
	}
	// writesWhile writes back to back until done closes.
	writesWhile := func(done <-chan struct{}) []time.Duration {
		var out []time.Duration
		for {
			select {
			case <-done:
				return out
			default:
				out = append(out, write())
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst := filepath.Join(b.TempDir(), "backup.db")
		done := make(chan struct{})
		var during []time.Duration
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); during = writesWhile(done) }()
		start := time.Now()
		if err := s.BackupInto(ctx, dst); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		close(done)
		wg.Wait()

		quiet := make(chan struct{})
		time.AfterFunc(took, func() { close(quiet) })
		baseline := writesWhile(quiet)

		// Reported here, not before ResetTimer, which drops metrics.
		b.ReportMetric(float64(size)/(1<<20), "db-MiB")
		b.ReportMetric(float64(took.Milliseconds()), "backup-ms")
		b.ReportMetric(float64(len(during)), "writes-during")
		b.ReportMetric(float64(len(baseline)), "writes-without")
		maxD, maxB := slices.Max(during), slices.Max(baseline)
		p99D, p99B := percentile(during, 0.99), percentile(baseline, 0.99)
		b.ReportMetric(ms(maxD), "max-write-ms-during")
		b.ReportMetric(ms(maxB), "max-write-ms-without")
		b.ReportMetric(ms(maxD)/ms(maxB), "max-ratio")
		b.ReportMetric(ms(p99D)/ms(p99B), "p99-ratio")
		b.ReportMetric(ms(percentile(during, 0.5))/ms(percentile(baseline, 0.5)), "median-ratio")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func percentile(list []time.Duration, p float64) time.Duration {
	sorted := slices.Clone(list)
	slices.Sort(sorted)
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(float64(len(sorted)-1)*p)]
}
