package routes

import (
	"io"
	"net/http"
	"testing"
	"time"
)

// BenchmarkHostConsolePollRound measures what the host console page costs
// the server: one poll round (system, settings, clients every second and
// the campaign, fetched every two seconds, counted in full) over loopback
// HTTP, against GET /api (the players' snapshot) fetched the same way in
// the same run. It reports the ratio and the share of one core that
// polling once a second takes (an upper bound: wall time, client and
// server together).
func BenchmarkHostConsolePollRound(b *testing.B) {
	e := newConsoleEnv(b)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}}
	get := func(url string) {
		resp, err := client.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d", url, resp.StatusCode)
		}
	}
	round := []string{"/host/api/system", "/host/api/settings", "/host/api/clients", "/host/api/campaign"}
	pollRound := func() {
		for _, p := range round {
			get(e.host.URL + p)
		}
	}
	snapshot := func() { get(e.public.URL + "/api") }
	pollRound()
	snapshot()

	b.ResetTimer()
	var pollTime, snapTime time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		pollRound()
		pollTime += time.Since(start)
		start = time.Now()
		snapshot()
		snapTime += time.Since(start)
	}
	b.StopTimer()
	perRound := pollTime / time.Duration(b.N)
	b.ReportMetric(float64(perRound.Microseconds()), "µs/round")
	b.ReportMetric(float64(pollTime)/float64(snapTime), "x-GET-/api")
	b.ReportMetric(100*perRound.Seconds(), "%core-at-1Hz")
}
