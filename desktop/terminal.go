package desktop

import "os"

// LaunchedWithoutTerminal reports a start from a desktop (a double-click,
// a menu entry) rather than from a terminal, a script, a service manager or
// a container: then nobody reads the banner, and the host console should
// open in the browser instead.
func LaunchedWithoutTerminal() bool {
	if os.Getenv("INVOCATION_ID") != "" { // a systemd service
		return false
	}
	return launchedWithoutTerminal()
}

// capturedOutput reports standard output going to a pipe or a file: some
// program reads it (a script, a test, docker logs), so a person is not
// waiting in front of a desktop for a window.
func capturedOutput() bool {
	fi, err := os.Stdout.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeNamedPipe != 0 || fi.Mode().IsRegular()
}
