package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// CPU time of the shared test browser's processes, from /proc: a measure
// of a page's work that a loaded machine does not distort as much as wall
// clock (other engineers' builds slow a frame down, but do not add CPU
// time to this browser's processes).

// BrowserCPU is CPU time in ms (user + system) of the shared browser's
// GPU process (where SwiftShader draws WebGL and composites pages) and of
// all its processes together. ok is false where /proc is not there.
type BrowserCPU struct {
	GPU, All float64
	ok       bool
}

func (a BrowserCPU) Sub(b BrowserCPU) BrowserCPU {
	return BrowserCPU{GPU: a.GPU - b.GPU, All: a.All - b.All, ok: a.ok && b.ok}
}

// ReadBrowserCPU is readBrowserCPUOf the shared browser.
func ReadBrowserCPU() BrowserCPU { return ReadBrowserCPUOf(SharedBrowser.dataDir) }

// ReadBrowserCPUOf sums the CPU time of the processes whose command line
// names the browser profile folder dir, or descends from one.
func ReadBrowserCPUOf(dir string) BrowserCPU {
	if dir == "" {
		return BrowserCPU{}
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return BrowserCPU{}
	}
	tick := 100.0 // USER_HZ on Linux
	type proc struct {
		ppid int
		cpu  float64
		cmd  string
	}
	procs := map[int]proc{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseFloat(f[11], 64)
		st, _ := strconv.ParseFloat(f[12], 64)
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		procs[pid] = proc{ppid: ppid, cpu: (ut + st) * 1000 / tick, cmd: string(cmd)}
	}
	ours := func(pid int) bool {
		for range 6 {
			p, found := procs[pid]
			if !found {
				return false
			}
			if strings.Contains(p.cmd, dir) {
				return true
			}
			pid = p.ppid
		}
		return false
	}
	var c BrowserCPU
	for pid, p := range procs {
		if !ours(pid) {
			continue
		}
		c.ok = true
		c.All += p.cpu
		if strings.Contains(p.cmd, "--type=gpu-process") {
			c.GPU += p.cpu
		}
	}
	return c
}
