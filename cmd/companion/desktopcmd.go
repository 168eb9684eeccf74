package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/vttapp/companion/desktop"
	"github.com/vttapp/companion/web"
)

// freedesktop tells the systems whose desktops follow freedesktop.org.
func freedesktop() bool {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		return true
	}
	return false
}

// runInstallDesktop implements `companion install-desktop`: vttapp:// links
// and content files opened on this desktop go to Companion (launch.go).
func runInstallDesktop(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: companion install-desktop")
		return 2
	}
	if !freedesktop() {
		fmt.Fprintf(stderr, "companion: install-desktop is for Linux and the BSDs; on %s, see the README's Download section for what works there\n", runtime.GOOS)
		return 1
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintln(stderr, "companion: cannot find this program:", err)
		return 1
	}
	if strings.Contains(filepath.ToSlash(exe), "/go-build") {
		fmt.Fprintf(stderr, "companion: %s is a temporary build (go run?): install from a program that stays, such as the one in a release archive\n", exe)
		return 1
	}
	folders, err := desktop.UserFolders()
	if err != nil {
		fmt.Fprintln(stderr, "companion:", err)
		return 1
	}
	icon, _ := fs.ReadFile(web.FS, "icon.png")
	written, notes, err := desktop.Install(folders, exe, icon)
	for _, p := range written {
		fmt.Fprintln(stdout, "wrote", p)
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, "note:", n)
	}
	if err != nil {
		fmt.Fprintln(stderr, "companion:", err)
		return 1
	}
	fmt.Fprintf(stdout, "vttapp:// links and %s files now open with %s (it starts the server when none runs).\n", typeList(), exe)
	return 0
}

// runUninstallDesktop implements `companion uninstall-desktop`.
func runUninstallDesktop(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: companion uninstall-desktop")
		return 2
	}
	if !freedesktop() {
		fmt.Fprintf(stderr, "companion: uninstall-desktop is for Linux and the BSDs; nothing is installed on %s\n", runtime.GOOS)
		return 1
	}
	folders, err := desktop.UserFolders()
	if err != nil {
		fmt.Fprintln(stderr, "companion:", err)
		return 1
	}
	removed, notes, err := desktop.Uninstall(folders)
	for _, p := range removed {
		fmt.Fprintln(stdout, "removed", p)
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, "note:", n)
	}
	if err != nil {
		fmt.Fprintln(stderr, "companion:", err)
		return 1
	}
	return 0
}

func typeList() string {
	var exts []string
	for _, t := range desktop.FileTypes {
		exts = append(exts, strings.TrimPrefix(t.Glob, "*"))
	}
	return strings.Join(exts, " ")
}
