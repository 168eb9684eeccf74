package hub

import "errors"

// writeNow never writes on Windows, whose sockets Go drives with
// overlapped I/O: a plain write beside it is not safe. Every broadcast
// frame then goes through the connection's queue and writer, as on a
// busy socket.
func writeNow(fd uintptr, frame []byte) (int, error) {
	return 0, errors.New("no direct write on Windows")
}
