//go:build !windows

package main

import (
	"errors"
	"syscall"
)

func portTaken(err error) bool { return errors.Is(err, syscall.EADDRINUSE) }
