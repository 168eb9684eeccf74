package desktop

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

var getConsoleProcessList = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetConsoleProcessList")

// launchedWithoutTerminal: Explorer gives a double-clicked console program
// a console of its own, so the program is alone in it; from a terminal,
// the shell shares the console.
func launchedWithoutTerminal() bool {
	if capturedOutput() {
		return false
	}
	var ids [4]uint32
	n, _, _ := getConsoleProcessList.Call(uintptr(unsafe.Pointer(&ids[0])), uintptr(len(ids)))
	return n == 1
}
