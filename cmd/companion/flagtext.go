package main

import (
	"errors"
	"flag"
	"fmt"
	"regexp"
	"strings"
)

// Flags that take a word but, for what they meant before, also stand alone
// (--remote-interaction alone is all, --open alone is true), and the words
// each takes. The flag package reads a boolean flag's value only after
// '=', so `--remote-interaction token` would leave "token" behind as a
// stray argument: modeWords joins such a word to its flag.
var modeWords = map[string][]string{
	"remote-interaction": {"none", "token", "all", "true", "false"},
	"open":               {"auto", "true", "false"},
}

// joinModeWords rewrites `--flag word` as `--flag=word` for the flags of
// modeWords when word is one of theirs; anything else is left as it is.
func joinModeWords(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name := strings.TrimLeft(a, "-")
		words, ok := modeWords[name]
		if ok && strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && i+1 < len(args) {
			for _, w := range words {
				if strings.EqualFold(args[i+1], w) {
					a += "=" + args[i+1]
					i++
					break
				}
			}
		}
		out = append(out, a)
	}
	return out
}

// flagPackageError matches the flag package's wording of a bad value.
var flagPackageError = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([A-Za-z0-9-]+): (.*)$`)

// flagText words a parse error of the flag package for a person: the flag
// as they typed it, the value, and what it takes, once (the package would
// say "invalid boolean value" for a mode and then print every flag).
func flagText(err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	m := flagPackageError.FindStringSubmatch(err.Error())
	if m == nil {
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
			return fmt.Errorf("there is no flag --%s (companion serve -h lists them)", name)
		}
		return err
	}
	why := m[3]
	if why == "parse error" || strings.Contains(why, "invalid syntax") {
		why = "not a number"
	}
	return fmt.Errorf("--%s %q: %s", m[2], m[1], why)
}
