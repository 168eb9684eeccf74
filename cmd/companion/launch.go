package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vttapp/companion/desktop"
	"github.com/vttapp/companion/imports"
)

// runLaunch implements `companion launch [LINK|FILE ...]`, what the
// desktop entry runs (install-desktop): it finds the server running with
// the data folder, or starts one in the background, offers each vttapp://
// link and content file to it (they wait on the host console for the
// person at the device, as with `companion open`), and opens the host
// console in the browser.
func runLaunch(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("companion launch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", envOr("COMPANION_DATA", defaultDataDir()), "data folder of the server to offer to (and to start when none runs)")
	open := fs.Bool("open", envOr("COMPANION_OPEN", "true") != "false", "open the host console in the browser")
	wait := fs.Duration("wait", 60*time.Second, "how long to wait for a server that this command starts")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	hostAddr, err := launchServer(*dataDir, *wait, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "companion:", err)
		return 1
	}
	failed := 0
	for _, arg := range fs.Args() {
		offer, err := offerArg(hostAddr, arg)
		if err != nil {
			fmt.Fprintf(stderr, "companion: %s: %v\n", arg, err)
			failed++
			continue
		}
		data, _ := json.Marshal(offer)
		fmt.Fprintln(stdout, string(data))
	}
	if *open {
		if err := desktop.OpenURL("http://" + hostAddr + "/host/"); err != nil {
			fmt.Fprintf(stderr, "companion: open http://%s/host/ in a browser (%v)\n", hostAddr, err)
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// launchServer returns the host console address of the server running
// with dataDir, starting one in the background when none answers.
func launchServer(dataDir string, wait time.Duration, stderr io.Writer) (string, error) {
	if inst, ok := runningInstance(dataDir); ok {
		return dialAddr(inst.HostAddr), nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this program to start the server: %v", err)
	}
	if err := makeFolder(dataDir); err != nil {
		return "", err
	}
	// The server outlives this command: its output goes to a log file in
	// the data folder, and it runs in a session of its own.
	logPath := filepath.Join(dataDir, "companion.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return "", fmt.Errorf("server log: %v", err)
	}
	defer logFile.Close()
	cmd := exec.Command(exe, "serve", "--data", dataDir, "--open=false")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("cannot start the server: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	fmt.Fprintf(stderr, "Starting Companion (pid %d, log %s)\n", cmd.Process.Pid, logPath)
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); {
		if inst, ok := runningInstance(dataDir); ok {
			return dialAddr(inst.HostAddr), nil
		}
		select {
		case err := <-exited:
			return "", fmt.Errorf("the server stopped at once (%v); its log, %s, says why", err, logPath)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return "", fmt.Errorf("the server did not answer within %s; see %s", wait, logPath)
}

// offerArg offers a vttapp:// link, or a file given as a path or a file://
// URL (the desktop hands files over as URLs with %U).
func offerArg(hostAddr, arg string) (imports.Offer, error) {
	var offer imports.Offer
	if u, err := url.Parse(arg); err == nil && u.Scheme != "" && u.Scheme != "file" && len(u.Scheme) > 1 {
		if _, err := imports.ParseLink(arg); err != nil {
			return offer, err
		}
		body, _ := json.Marshal(map[string]string{"link": arg})
		err := linkCall(hostAddr, "POST", "/host/api/offers", "application/json", bytes.NewReader(body), 201, &offer)
		return offer, err
	}
	path := arg
	if u, err := url.Parse(arg); err == nil && u.Scheme == "file" {
		if u.Host != "" && u.Host != "localhost" {
			return offer, fmt.Errorf("a file on another machine (%s) cannot be offered", u.Host)
		}
		path = filepath.FromSlash(u.Path)
	}
	if strings.TrimSpace(path) == "" {
		return offer, errors.New("no file named")
	}
	err := uploadVia(hostAddr, "/host/api/offers", path, nil, io.Discard, &offer)
	return offer, err
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}
