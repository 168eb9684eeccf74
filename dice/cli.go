package dice

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

const cliUsage = `usage: companion roll EXPR [--json] [--seed N]

Rolls one dice expression and prints its compact text, for example
  companion roll 4d6dl1          ->  4d6dl1: [6, 4, 3, 2d] = 13
  companion roll '{1d20+5, 1d20+3}kh1' --json
--json prints the whole result (total, formula, every die) as JSON.
--seed N makes the roll repeatable. The notation is in docs/dice.md.
`

// RunCLI implements "companion roll EXPR [--json] [--seed N]": it prints
// the compact text (or the JSON result) on stdout and returns 0, or prints
// the error on stderr and returns 1 (2 for a misused command line). The
// words of EXPR may be given as separate arguments: roll 2d6 + 3.
func RunCLI(args []string, stdout, stderr io.Writer) int {
	var (
		words   []string
		asJSON  bool
		seed    uint64
		seeded  bool
		literal bool
	)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case literal:
			words = append(words, a)
		case a == "--":
			literal = true
		case a == "--json" || a == "-json":
			asJSON = true
		case a == "-h" || a == "--help" || a == "-help":
			fmt.Fprint(stdout, cliUsage)
			return 0
		case a == "--seed" || a == "-seed" || strings.HasPrefix(a, "--seed=") || strings.HasPrefix(a, "-seed="):
			value, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), "seed=")
			if !ok {
				if i+1 >= len(args) {
					fmt.Fprint(stderr, "roll: --seed needs a number\n", cliUsage)
					return 2
				}
				i++
				value = args[i]
			}
			n, err := strconv.ParseUint(value, 10, 64)
			if err != nil {
				fmt.Fprintf(stderr, "roll: --seed %q is not a whole number from 0 to %d\n", value, uint64(1<<64-1))
				return 2
			}
			seed, seeded = n, true
		default:
			words = append(words, a)
		}
	}
	expr := strings.Join(words, " ")
	if strings.TrimSpace(expr) == "" {
		fmt.Fprint(stderr, "roll: no expression given\n", cliUsage)
		return 2
	}
	roller := NewRoller()
	if seeded {
		roller = NewSeededRoller(seed)
	}
	res, err := roller.Roll(expr)
	if err != nil {
		fmt.Fprintf(stderr, "roll: %v\n", err)
		return 1
	}
	if !asJSON {
		fmt.Fprintln(stdout, res.Text())
		return 0
	}
	res.End = utf16Len(expr)
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "roll: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", data)
	return 0
}
