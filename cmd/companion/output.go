package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/vttapp/companion/backup"
	"github.com/vttapp/companion/imports"
)

// A command's result goes to stdout in one of two forms: sentences for a
// person at a terminal, or one line of JSON for a script. The JSON is what
// a pipe or a file gets (and what the tests read), so scripts that parse
// it keep working; COMPANION_OUTPUT=json or =text forces either. Errors go
// to stderr the same way, judged by stderr: a sentence at a terminal, else
// one line {"error": "..."}. A progress bar is drawn for a person only:
// redrawn with carriage returns, a file or a pipe would get every frame.

// printResult writes v as JSON, or as what human writes when stdout is a
// terminal.
func printResult(stdout io.Writer, v any, human func(w io.Writer)) {
	if wantsText(stdout) {
		human(stdout)
		return
	}
	data, _ := json.Marshal(v)
	fmt.Fprintln(stdout, string(data))
}

// printError writes a command's error on stderr: the sentence for a
// person, or one line of JSON {"error": "..."} for a script.
func printError(stderr io.Writer, err error) {
	if wantsText(stderr) {
		fmt.Fprintln(stderr, err.Error())
		return
	}
	enc := json.NewEncoder(stderr)
	enc.SetEscapeHTML(false) // "<" stays "<" in a message a script shows
	enc.Encode(map[string]string{"error": err.Error()})
}

// wantsText reports whether w (stdout, stderr) is read by a person.
func wantsText(w io.Writer) bool {
	switch os.Getenv("COMPANION_OUTPUT") {
	case "json":
		return false
	case "text":
		return true
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// describeImport tells what an import made.
func describeImport(w io.Writer, res imports.Result) {
	fmt.Fprintf(w, "Imported %s %q (id %s).\n", res.Kind, res.Name, res.ID)
	if c := res.Compendium; c != nil {
		fmt.Fprintf(w, "  %s written.\n", plural(c.Entities, "entity", "entities"))
		if len(c.Skipped) > 0 {
			kinds := make([]string, 0, len(c.Skipped))
			for k, n := range c.Skipped {
				kinds = append(kinds, fmt.Sprintf("%d %s", n, k))
			}
			sort.Strings(kinds)
			fmt.Fprintf(w, "  Left out: %s.\n", strings.Join(kinds, ", "))
		}
		notes(w, c.Notes)
	}
	if l := res.Library; l != nil {
		var parts []string
		for _, p := range []struct {
			n          int
			one, other string
		}{{l.Pages, "page", "pages"}, {l.Maps, "map", "maps"}, {l.Encounters, "encounter", "encounters"},
			{l.Groups, "group", "groups"}, {l.Entities, "entity", "entities"}, {l.Assets, "file", "files"}} {
			if p.n > 0 {
				parts = append(parts, plural(p.n, p.one, p.other))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "  %s.\n", strings.Join(parts, ", "))
		}
		notes(w, l.Notes)
	}
	if res.GridPending {
		fmt.Fprintln(w, "  Set its grid in the host console before putting it on the player screen.")
	}
}

// describeExport tells where an export went.
func describeExport(w io.Writer, res exportResult) {
	fmt.Fprintf(w, "Exported %s %s to %s (%s).\n", res.Kind, res.ID, res.File, size(res.Bytes))
}

// describeBackup tells where a backup went.
func describeBackup(w io.Writer, res backup.Result) {
	fmt.Fprintf(w, "Backed up to %s: the database and %s, %s, in %d ms.\n",
		res.Path, plural(res.Files, "file", "files"), size(res.Bytes), res.DurationMs)
	if res.Linked {
		fmt.Fprintln(w, "  The files are hard links to the data folder's: this guards the database, not the disk.")
	}
	if len(res.Skipped) > 0 {
		fmt.Fprintf(w, "  Not files, so not backed up: %s.\n", strings.Join(res.Skipped, ", "))
	}
}

// describeRestore tells what a restore did.
func describeRestore(w io.Writer, out restored) {
	fmt.Fprintf(w, "Restored %s into %s (backup of %s, Companion %s).\n",
		out.From, out.Restored, out.Created.Local().Format("2 Jan 2006 15:04"), out.Version)
	if out.MovedAside != "" {
		fmt.Fprintf(w, "  The data folder that was there is now %s.\n", out.MovedAside)
	}
}

// describeOffer tells where an offered link waits.
func describeOffer(w io.Writer, offer imports.Offer) {
	what := offer.URL
	if offer.Manifest != "" {
		what = offer.Manifest
	}
	fmt.Fprintf(w, "Offered %s to the host console (offer %s): confirm it there to import.\n", what, offer.ID)
}

func notes(w io.Writer, list []string) {
	for _, n := range list {
		fmt.Fprintf(w, "  Note: %s\n", n)
	}
}

func plural(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, other)
}

func size(bytes int64) string {
	switch {
	case bytes >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(bytes)/(1<<20))
	case bytes >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(bytes)/(1<<10))
	}
	return plural(int(bytes), "byte", "bytes")
}
