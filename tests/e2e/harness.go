// Package e2e is what the end-to-end tests share: they build the real
// companion binary once, start it on loopback with a fresh data folder, and
// talk to it with real HTTP and WebSocket clients and headless Chromium.
// The tests themselves live in the packages beside it (tests/api,
// tests/player, tests/party, tests/playerview, tests/table, tests/console,
// tests/perf),
// each a test binary of its own, so that each stays inside Go's 10-minute
// limit per package on a busy machine; each calls Main from its TestMain.
package e2e

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Main runs a test package's tests inside the sandbox (sandbox.go): each
// package of end-to-end tests calls it from its TestMain.
func Main(m *testing.M) {
	if root := os.Getenv(watchdogEnv); root != "" {
		os.Exit(runWatchdog(root)) // sandbox_test.go
	}
	if err := openSandbox(); err != nil {
		fmt.Fprintf(os.Stderr, "companion tests: %v\n", err)
		os.Exit(1)
	}
	flag.Parse()
	setBrowserPoolSize()
	code := m.Run()
	closeBrowsers()
	os.RemoveAll(sandbox.root) // the built binary and whatever a test left
	closeSandbox()
	os.Exit(code)
}

// CompanionBinary builds ./cmd/companion once per test run and returns its
// path. COMPANION_BIN names a binary built elsewhere instead (to measure
// another version with the same test, as the stalled-upload load test does);
// a child test binary (the cleanup test) is handed its parent's.
func CompanionBinary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("COMPANION_BIN"); bin != "" {
		return bin
	}
	buildOnce.Do(func() {
		if prebuilt := os.Getenv(PrebuiltEnv); prebuilt != "" {
			binPath = prebuilt
			return
		}
		// Under the sandbox's root: removed with it.
		buildDir, err := os.MkdirTemp("", "companion-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(buildDir, "companion")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		args := []string{"build", "-o", binPath}
		if RaceEnabled {
			args = append(args, "-race")
		}
		cmd := exec.Command("go", append(args, "../../cmd/companion")...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building companion: %v", buildErr)
	}
	return binPath
}

// Server is a running companion process.
type Server struct {
	// URL is the public base URL (http://127.0.0.1:port), HostURL the host
	// console's, DataDir the data folder.
	URL, HostURL, DataDir string
	Cmd                   *exec.Cmd
	out                   *testkit.LogBuffer
	done                  chan struct{}
}

// ServerOptions changes how StartServer runs the binary.
type ServerOptions struct {
	Args    []string // extra flags, e.g. --empty, --system DIR
	DataDir string   // reuse a data folder; empty means a fresh temp folder
	Env     []string
	// Addr and HostAddr reuse listen addresses, e.g. to restart a server
	// where its clients will reconnect; empty means free ports.
	Addr, HostAddr string
}

// StartServer starts companion on free loopback ports and waits until both
// listeners answer. The process is stopped (SIGINT) when the test ends.
func StartServer(t testing.TB, opts ServerOptions) *Server {
	t.Helper()
	bin := CompanionBinary(t)
	dataDir := opts.DataDir
	if dataDir == "" {
		dataDir = t.TempDir()
	}
	// A port FreeAddr found free can be taken again before the server
	// binds it (by a parallel test's server or browser): the server then
	// refuses to start, before it touches the data folder. With ports of
	// our own choosing, choose again.
	for attempt := 1; ; attempt++ {
		addr, hostAddr := opts.Addr, opts.HostAddr
		if addr == "" {
			addr = pickAddr(t)
		}
		if hostAddr == "" {
			hostAddr = pickAddr(t)
		}
		s, err := startServerOn(t, bin, dataDir, addr, hostAddr, opts)
		if err == nil {
			return s
		}
		ours := opts.Addr == "" || opts.HostAddr == ""
		if !ours || attempt == 3 || !strings.Contains(s.Output(), "is taken") {
			t.Fatalf("%v:\n%s", err, s.Output())
		}
		t.Logf("companion could not bind a port that was free a moment ago; trying other ports:\n%s", s.Output())
	}
}

// pickAddr is where StartServer gets the ports it chooses (FreeAddr; a
// test of the retry hands out a taken one first).
var pickAddr = FreeAddr

// startServerOn starts companion on addr and hostAddr and waits until both
// listeners answer; it returns an error (and the server, for its output)
// when the process exits first or is not ready within 60 s.
func startServerOn(t testing.TB, bin, dataDir, addr, hostAddr string, opts ServerOptions) (*Server, error) {
	t.Helper()
	args := append([]string{"serve", "--data", dataDir, "--addr", addr, "--host-addr", hostAddr}, opts.Args...)
	cmd := exec.Command(bin, args...)
	out := &testkit.LogBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	// A race-enabled binary on a loaded CI machine can take longer than the
	// production Lua time limit on an ordinary view; these tests are about
	// behaviour, not that limit (scripting tests it), so it is generous
	// unless a test sets its own (the last value in Env wins).
	cmd.Env = append(append(os.Environ(), "COMPANION_LUA_TIMEOUT=10s"), opts.Env...)
	// Its own process group, killed with the test process (sandbox_test.go).
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start companion: %v", err)
	}
	tellWatchdog("pgid", cmd.Process.Pid)
	s := &Server{URL: "http://" + addr, HostURL: "http://" + hostAddr, DataDir: dataDir, Cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		tellWatchdog("gone", cmd.Process.Pid)
		close(s.done)
	}()
	t.Cleanup(func() { s.Stop(t) })
	deadline := time.Now().Add(60 * time.Second)
	for {
		if ready(s.URL+"/api/system") && ready(s.HostURL+"/host/") {
			return s, nil
		}
		select {
		case <-s.done:
			return s, errors.New("companion exited before it was ready")
		default:
		}
		if time.Now().After(deadline) {
			return s, errors.New("companion not ready after 60s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop interrupts the server and waits for it to exit (kills it after 15s).
func (s *Server) Stop(t testing.TB) {
	select {
	case <-s.done:
		return
	default:
	}
	s.Cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		s.Cmd.Process.Kill()
		<-s.done
		t.Errorf("companion did not stop within 15s of SIGINT:\n%s", s.out.String())
	}
}

// Output returns what the process printed so far (banner and log).
func (s *Server) Output() string { return s.out.String() }

// Exited reports whether the process has ended, and its exit code.
func (s *Server) Exited() (bool, int) {
	select {
	case <-s.done:
		return true, s.Cmd.ProcessState.ExitCode()
	default:
		return false, 0
	}
}

func ready(url string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode < 500
}

func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Lines returns the output lines containing substr.
func (s *Server) Lines(substr string) []string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s.Output()))
	for sc.Scan() {
		if strings.Contains(sc.Text(), substr) {
			lines = append(lines, sc.Text())
		}
	}
	return lines
}

// RunBinary runs a companion command to completion (at most 30 s) and
// returns its combined output and exit code.
func RunBinary(t testing.TB, bin string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			return string(out), exit.ExitCode()
		}
		t.Fatalf("run %v: %v", args, err)
	}
	return string(out), 0
}
