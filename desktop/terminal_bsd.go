//go:build darwin || freebsd || openbsd || netbsd || dragonfly

package desktop

import "golang.org/x/sys/unix"

const ioctlReadTermios = unix.TIOCGETA
