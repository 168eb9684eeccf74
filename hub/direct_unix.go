//go:build !windows

package hub

import "syscall"

// writeNow is one non-blocking write(2) on the socket (Go's network
// sockets are non-blocking on Unix).
func writeNow(fd uintptr, frame []byte) (int, error) {
	return syscall.Write(int(fd), frame)
}
