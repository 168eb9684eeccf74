package main

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// portTaken: Winsock says WSAEADDRINUSE, and binding a port another
// program holds exclusively is WSAEACCES.
func portTaken(err error) bool {
	return errors.Is(err, windows.WSAEADDRINUSE) || errors.Is(err, windows.WSAEACCES) || errors.Is(err, syscall.EADDRINUSE)
}
