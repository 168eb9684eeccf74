package main

import (
	"errors"
	"flag"
	"fmt"
	"regexp"
	"strings"
	"time"
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
// as they typed it, the value, and what it takes with an example, once
// (the package would say "invalid boolean value" or "parse error" and then
// print every flag). fs is the set the flag belongs to: the kind of value
// and the example come from its declaration.
func flagText(err error, fs *flag.FlagSet) error {
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
	if why == "parse error" || strings.Contains(why, "invalid syntax") || strings.Contains(why, "value out of range") {
		why = takes(fs, m[2])
	}
	return fmt.Errorf("--%s %q: %s", m[2], m[1], why)
}

// takes says what kind of value a flag takes, with an example made from
// its default (for a boolean, the other value: the one a person sets). The
// kind is read from the flag's value, which a failed parse has already
// set to its zero: the example comes from DefValue.
func takes(fs *flag.FlagSet, name string) string {
	f := fs.Lookup(name)
	if f == nil {
		return "not a value it takes"
	}
	getter, ok := f.Value.(flag.Getter)
	if !ok {
		return "not a value it takes"
	}
	switch getter.Get().(type) {
	case bool:
		return fmt.Sprintf("takes true or false, e.g. --%s=%t", name, f.DefValue != "true")
	case time.Duration:
		return fmt.Sprintf("takes a duration such as 500ms, 2s or 1m, e.g. --%s=%s", name, f.DefValue)
	case int, int64, uint, uint64:
		return fmt.Sprintf("takes a whole number, e.g. --%s=%s", name, f.DefValue)
	case float64:
		return fmt.Sprintf("takes a number, e.g. --%s=%s", name, f.DefValue)
	}
	return "not a value it takes"
}
