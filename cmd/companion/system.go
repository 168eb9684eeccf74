package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/vttapp/companion/systems"
)

// runSystem runs "companion system test DIR [-update]": it renders every
// golden case of the system folder DIR and compares it with the stored
// output (exit 1 on a mismatch), or rewrites the stored output with
// -update. Exit 2 is a usage error or a system that does not load.
// "companion system new NAME [DIR]" writes a starting folder (runSystemNew).
func runSystem(args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: companion system test DIR [-update]")
		fmt.Fprintln(stderr, "  Renders each golden case DIR/tests/*.txtar (list row, basic row, view JSON, HTML page)")
		fmt.Fprintln(stderr, "  and compares it with the stored output; -update rewrites the stored output.")
		fmt.Fprintln(stderr, "       companion system new NAME [DIR]")
		fmt.Fprintln(stderr, "  Writes a starting system folder (DIR, default ./NAME): a kind, its view and template,")
		fmt.Fprintln(stderr, "  a roll with its own option and outcomes, and a golden case that passes as created.")
	}
	if len(args) > 0 && args[0] == "new" {
		return runSystemNew(args[1:], stdout, stderr, usage)
	}
	if len(args) == 0 || args[0] != "test" {
		usage()
		return 2
	}
	fset := flag.NewFlagSet("companion system test", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = usage
	update := fset.Bool("update", false, "rewrite the stored outputs")
	// Accept the flag before or after DIR.
	var dirs []string
	rest := args[1:]
	for len(rest) > 0 {
		if err := fset.Parse(rest); err != nil {
			return 2
		}
		rest = fset.Args()
		if len(rest) > 0 {
			dirs = append(dirs, rest[0])
			rest = rest[1:]
		}
	}
	if len(dirs) != 1 {
		usage()
		return 2
	}
	failed, err := systems.RunGolden(dirs[0], *update, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "companion system test: %v\n", err)
		return 2
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// runSystemNew runs "companion system new NAME [DIR]".
func runSystemNew(args []string, stdout, stderr io.Writer, usage func()) int {
	if len(args) < 1 || len(args) > 2 {
		usage()
		return 2
	}
	dir := args[0]
	if len(args) == 2 {
		dir = args[1]
	}
	if err := systems.Scaffold(dir, args[0]); err != nil {
		fmt.Fprintf(stderr, "companion system new: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "Wrote the system %s in %s. Try it: companion --system %s; test it: companion system test %s\n", args[0], dir, dir, dir)
	return 0
}
