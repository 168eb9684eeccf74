package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"
)

// runHealth implements `companion health`: it asks the running server's
// host console whether it is ready (the store answers, a system is
// loaded) and exits 0 when it is, 1 otherwise. A container's HEALTHCHECK
// runs it, since the image has no other HTTP client.
func runHealth(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("companion health", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := addHostFlags(fs)
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	addr, err := host.resolve()
	if err != nil {
		printError(stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	url := "http://" + dialAddr(addr) + "/api/-/ready"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		printError(stderr, err)
		return 2
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		printError(stderr, fmt.Errorf("companion is not running on %s: %v", addr, errors.Unwrap(err)))
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		printError(stderr, fmt.Errorf("companion is not ready (%s): %s", resp.Status, bytes.TrimSpace(body)))
		return 1
	}
	fmt.Fprintf(stdout, "%s", body)
	return 0
}
