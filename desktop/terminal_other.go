//go:build !linux && !darwin && !freebsd && !openbsd && !netbsd && !dragonfly && !windows

package desktop

// launchedWithoutTerminal is never assumed where the platform gives no way
// to tell.
func launchedWithoutTerminal() bool { return false }
