//go:build !windows

package discovery

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// reuseAddress lets the socket share port 5353 with the machine's own
// responder (Avahi, mDNSResponder), which sets the same options.
func reuseAddress(network, address string, c syscall.RawConn) error {
	var opErr error
	err := c.Control(func(fd uintptr) {
		if opErr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); opErr != nil {
			return
		}
		opErr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
	})
	if err != nil {
		return err
	}
	return opErr
}
