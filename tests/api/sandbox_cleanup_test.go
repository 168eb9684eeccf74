package api

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

// abandonEnv makes TestAbandonedRunLeavesNothing, in a child test binary,
// start a server and the browser, say so, and end the way it names.
const abandonEnv = "COMPANION_TESTS_ABANDON"

// TestAbandonedRunLeavesNothing runs this test binary again as a child
// that starts a companion server and Chromium (with a page), and then ends
// without cleaning up: Go's -timeout panics, a Ctrl-C (SIGINT), a SIGQUIT
// (what `go test` sends a run that overstays its timeout), and a test
// that panics. After each, no process of the child's run is left (not the
// server, not Chromium nor any of its helpers) and its temporary folder
// (given as TMPDIR) is empty.
func TestAbandonedRunLeavesNothing(t *testing.T) {
	if how := os.Getenv(abandonEnv); how != "" {
		abandonRun(t, how)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("the leftovers are found in /proc, and only Linux kills children with their parent (Pdeathsig)")
	}
	e2e.FindBrowser(t) // the child drives one too; skips (or fails under CI) without one
	bin := e2e.CompanionBinary(t)
	for _, how := range []string{"timeout", "SIGINT", "SIGQUIT", "panic"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			// The timeout is real: the child's alarm must go off after it
			// has started everything, which a loaded machine may delay.
			for timeout := 4 * time.Second; ; timeout *= 2 {
				if abandonAndCheck(t, bin, how, timeout) || how != "timeout" {
					return
				}
				if timeout > time.Minute {
					t.Fatalf("the child never got its server and browser started within its -timeout")
				}
				t.Logf("the child timed out before it had started everything; again with -timeout %v", 2*timeout)
			}
		})
	}
}

// abandonAndCheck runs the child once; it returns false when the child
// ended (by its timeout) before it reported everything started.
func abandonAndCheck(t *testing.T, bin, how string, timeout time.Duration) bool {
	// Not t.TempDir(): its name holds the test's, and Chromium's socket
	// under it would pass the 107 bytes a socket path may have.
	tmp, err := os.MkdirTemp("", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	args := []string{"-test.run=^TestAbandonedRunLeavesNothing$", "-test.v"}
	if how == "timeout" {
		args = append(args, "-test.timeout="+timeout.String())
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), abandonEnv+"="+how, "TMPDIR="+tmp, e2e.PrebuiltEnv+"="+bin)
	// Wait returns once the child's stderr is closed by its last holder,
	// the watchdog, when it is done; a leftover holding it is a failure.
	cmd.WaitDelay = time.Minute
	out := &testkit.LogBuffer{}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The child prints "STARTED <marker> <server pid> <browser pid>" once
	// both run; everything it prints is kept for failure messages.
	var marker string
	var pids []int
	started := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			out.Write([]byte(line + "\n"))
			if f := strings.Fields(line); len(f) == 4 && f[0] == "STARTED" && marker == "" {
				marker = f[1]
				for _, s := range f[2:] {
					pid, _ := strconv.Atoi(s)
					pids = append(pids, pid)
				}
				close(started)
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { <-copied; exited <- cmd.Wait() }()
	select {
	case <-started:
	case err := <-exited:
		if how == "timeout" && strings.Contains(out.String(), "panic: test timed out") {
			return false
		}
		t.Fatalf("the child ended (%v) before it started its server and browser:\n%s", err, out.String())
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the child did not start its server and browser within 2 minutes:\n%s", out.String())
	}
	switch how {
	case "SIGINT":
		cmd.Process.Signal(syscall.SIGINT)
	case "SIGQUIT":
		cmd.Process.Signal(syscall.SIGQUIT)
	}
	var err2 error
	select {
	case err2 = <-exited:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the child did not end within 2 minutes:\n%s", out.String())
	}
	want := map[string]string{
		"timeout": "panic: test timed out after",
		"SIGINT":  "interrupted (interrupt)",
		"SIGQUIT": "SIGQUIT: quit",
		"panic":   "panic: abandoned on purpose",
	}[how]
	if err2 == nil || !strings.Contains(out.String(), want) {
		t.Errorf("the child ended with %v and did not print %q:\n%.3000s", err2, want, out.String())
	}
	if left := e2e.MarkedProcesses(marker); len(left) > 0 {
		t.Errorf("processes of the abandoned run are still running: %s", describeProcesses(left))
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d (%s) of the abandoned run is still running", pid, describeProcesses([]int{pid}))
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the abandoned run left %v in its temporary folder", names)
	}
	return true
}

// abandonRun is the child's side: a server and a browser page on it,
// then the end it was asked for.
func abandonRun(t *testing.T, how string) {
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	p := e2e.NewPage(t, "abandoned", e2e.ViewportSize{Width: 320, Height: 240, Mobile: false})
	p.Navigate(srv.URL + "/")
	proc := sharedBrowserProcess()
	fmt.Printf("STARTED %s %d %d\n", e2e.Marker(), srv.Cmd.Process.Pid, proc)
	switch how {
	case "panic":
		panic("abandoned on purpose")
	default: // the timeout's alarm, or a signal from the parent
		select {}
	}
}

// sharedBrowserProcess is the pid of the shared browser's main process.
func sharedBrowserProcess() int {
	if proc := chromedp.FromContext(e2e.SharedBrowser.Ctx).Browser.Process(); proc != nil {
		return proc.Pid
	}
	return 0
}

// alive reports whether pid runs (a zombie, exited but not yet waited
// for by its new parent, does not count).
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && s[i+2] != 'Z' && s[i+2] != 'X'
}

// describeProcesses names processes by pid and command line.
func describeProcesses(pids []int) string {
	var out []string
	for _, pid := range pids {
		cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		out = append(out, fmt.Sprintf("%d %.120s", pid, bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
	}
	return strings.Join(out, "; ")
}
