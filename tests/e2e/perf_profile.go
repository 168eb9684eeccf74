package e2e

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// A JavaScript CPU profile of a page (Chromium's sampling profiler over
// the DevTools protocol), summarised as the functions with the most self
// and total time: where a page's main thread goes during a benchmark.
// Build the client with COMPANION_BUILD_READABLE=1 npm run build first for
// names instead of minified letters (and build it again before committing).

// StartProfile starts sampling page p's JavaScript every 200 µs.
func StartProfile(p *BrowserPage) {
	p.T.Helper()
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, profiler.Start, cdp.Empty{})
		return err
	}))
}

// StopProfile stops sampling and returns the profile.
func StopProfile(p *BrowserPage) *profiler.Profile {
	p.T.Helper()
	var prof *profiler.Profile
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
		if err == nil {
			prof = res.Profile
		}
		return err
	}))
	return prof
}

// ProfileSummary logs the top functions of prof by self time and by
// total time (time with the function on the stack), in ms.
func ProfileSummary(t *testing.T, title string, prof *profiler.Profile, top int) {
	t.Helper()
	if prof == nil || len(prof.Nodes) == 0 {
		t.Logf("%s: empty profile", title)
		return
	}
	byID := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, n := range prof.Nodes {
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	name := func(n *profiler.ProfileNode) string {
		f := n.CallFrame
		fn := f.FunctionName
		if fn == "" {
			fn = "(anonymous)"
		}
		if f.URL == "" {
			return fn
		}
		file := f.URL[strings.LastIndexByte(f.URL, '/')+1:]
		return fmt.Sprintf("%s %s:%d", fn, file, f.LineNumber+1)
	}
	self, total := map[string]float64{}, map[string]float64{}
	var all float64
	for i, id := range prof.Samples {
		if i >= len(prof.TimeDeltas) {
			break
		}
		// A sample's time is the gap to the next one.
		dt := 0.0
		if i+1 < len(prof.TimeDeltas) {
			dt = float64(prof.TimeDeltas[i+1]) / 1000
		}
		all += dt
		n := byID[id]
		if n == nil {
			continue
		}
		self[name(n)] += dt
		seen := map[string]bool{}
		for cur, ok := id, true; ok; cur, ok = parent[cur] {
			nn := name(byID[cur])
			if !seen[nn] {
				seen[nn] = true
				total[nn] += dt
			}
		}
	}
	list := func(m map[string]float64) string {
		type kv struct {
			k string
			v float64
		}
		var v []kv
		for k, x := range m {
			v = append(v, kv{k, x})
		}
		sort.Slice(v, func(i, j int) bool { return v[i].v > v[j].v })
		var lines []string
		for i := 0; i < len(v) && i < top; i++ {
			lines = append(lines, fmt.Sprintf("  %8.1f ms %5.1f%%  %s", v[i].v, 100*v[i].v/all, v[i].k))
		}
		return strings.Join(lines, "\n")
	}
	t.Logf("%s: %.0f ms sampled\nself time:\n%s\ntotal time:\n%s", title, all, list(self), list(total))
}
