package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// instanceFile, in the data folder, tells the other commands (open,
// import, client, health, launch) and a second start where the running
// server listens: its ports may not be the default ones (a taken port, a
// port 0). It is written once both listeners are bound and removed at
// shutdown; one left by a crash is recognised as stale because its host
// console does not answer with its id.
const instanceFile = "server.json"

type instance struct {
	ID       string `json:"id"` // random, answered by the host console's /api/-/live
	PID      int    `json:"pid"`
	Addr     string `json:"addr"`     // the player listener, as bound
	HostAddr string `json:"hostAddr"` // the host console, as bound
	Version  string `json:"version"`
}

func writeInstance(dataDir string, inst instance) error {
	data, err := json.MarshalIndent(inst, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dataDir, instanceFile+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dataDir, instanceFile))
}

// removeInstance removes the file if it is still this server's.
func removeInstance(dataDir, id string) {
	path := filepath.Join(dataDir, instanceFile)
	var inst instance
	if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &inst) == nil && inst.ID == id {
		os.Remove(path)
	}
}

// runningInstance returns the server running with this data folder, if
// one answers.
func runningInstance(dataDir string) (instance, bool) {
	var inst instance
	data, err := os.ReadFile(filepath.Join(dataDir, instanceFile))
	if err != nil || json.Unmarshal(data, &inst) != nil || inst.HostAddr == "" {
		return instance{}, false
	}
	id, ok := probeLive(inst.HostAddr)
	return inst, ok && id == inst.ID
}

// probeLive asks a host console's /api/-/live and returns the instance id
// it answers with, when a Companion answers.
func probeLive(hostAddr string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+dialAddr(hostAddr)+"/api/-/live", nil)
	if err != nil {
		return "", false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	var live struct {
		App      string `json:"app"`
		Instance string `json:"instance"`
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &live) != nil || live.App != "companion" {
		return "", false
	}
	return live.Instance, true
}

// dialAddr turns a listen address into one to connect to: an unspecified
// host (":8081", "0.0.0.0:8081", "[::]:8081") is this machine's loopback,
// 127.0.0.1 (Go listens on both families for "::", and a container may
// have no ::1).
func dialAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// errAlreadyRunning is returned by serve when a server runs with the data
// folder.
var errAlreadyRunning = errors.New("already running")
