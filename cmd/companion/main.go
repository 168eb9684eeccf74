// Command companion runs the Companion server beside a tabletop game-master
// application, and offers the tools around it (dice, system tests, import
// links).
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `Companion: a game companion server for the table.

Usage:
  companion [serve] [flags]        start the server (default)
  companion version                print version and build
  companion roll EXPR [--json] [--seed N]
                                   roll dice notation
  companion system test DIR [-update]
                                   run a game system's golden tests
  companion link check LINK        parse a vttapp:// import link
  companion open LINK              offer a vttapp:// link to the running server
  companion import FILE|URL        import a file or URL into the running server
  companion client install FILE|URL
                                   install a web client (zip) into the running server
  companion client remove          go back to the built-in web client
  companion health                 exit 0 when the running server is ready
  companion launch [LINK|FILE...]  offer links and files to the running server,
                                   starting it first when none runs
  companion install-desktop        open vttapp:// links and content files with
                                   Companion on this desktop (Linux, BSD)
  companion uninstall-desktop      undo install-desktop

Run 'companion serve -h' for the server's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return runServe(args, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, thisRelease())
		return 0
	case "roll":
		return runRoll(args, stdout, stderr)
	case "system":
		return runSystem(args, stdout, stderr)
	case "link":
		return runLink(args, stdout, stderr)
	case "open":
		return runOpen(args, stdout, stderr)
	case "import":
		return runImport(args, stdout, stderr)
	case "client":
		return runClient(args, stdout, stderr)
	case "health":
		return runHealth(args, stdout, stderr)
	case "launch":
		return runLaunch(args, stdout, stderr)
	case "install-desktop":
		return runInstallDesktop(args, stdout, stderr)
	case "uninstall-desktop":
		return runUninstallDesktop(args, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "companion: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}
