package main

import (
	"io"

	"github.com/vttapp/companion/dice"
)

// runRoll implements "companion roll EXPR [--json] [--seed N]": it prints
// the roll's compact text (or its JSON result) and returns the exit code,
// 1 for an invalid expression. The work is dice.RunCLI, tested there.
func runRoll(args []string, stdout, stderr io.Writer) int {
	return dice.RunCLI(args, stdout, stderr)
}
