// Package desktop is what Companion does on a person's computer beyond
// serving: open the host console in the default browser, tell a
// double-click from a terminal, and hand vttapp:// links and content files
// from the desktop to the server (freedesktop.go, Linux and the BSDs).
package desktop

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// BrowserEnv names a command to open pages with instead of the system's
// (the page's address is its last argument); "none" opens nothing. Tests
// and kiosks set it.
const BrowserEnv = "COMPANION_BROWSER"

// ErrNoBrowser is returned when opening is turned off or impossible.
var ErrNoBrowser = errors.New("no browser to open the page with")

// OpenURL opens url in the default browser and does not wait for it.
func OpenURL(url string) error {
	name, args := browserCommand(url)
	if name == "" {
		return ErrNoBrowser
	}
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it; xdg-open and open return at once
	return nil
}

func browserCommand(url string) (string, []string) {
	if v := strings.TrimSpace(os.Getenv(BrowserEnv)); v != "" {
		if v == "none" {
			return "", nil
		}
		fields := strings.Fields(v)
		return fields[0], append(fields[1:], url)
	}
	switch runtime.GOOS {
	case "darwin":
		return "open", []string{url}
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler", url}
	default:
		return "xdg-open", []string{url}
	}
}
