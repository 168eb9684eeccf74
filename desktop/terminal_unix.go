//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package desktop

import (
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// launchedWithoutTerminal: no terminal on standard input, output or error,
// output not captured, and a graphical session to open a browser in.
func launchedWithoutTerminal() bool {
	for _, fd := range []int{0, 1, 2} {
		if isTerminal(fd) {
			return false
		}
	}
	if capturedOutput() {
		return false
	}
	if runtime.GOOS == "darwin" {
		return os.Getenv("SSH_CONNECTION") == ""
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

func isTerminal(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, ioctlReadTermios)
	return err == nil
}
