package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/backup"
	"github.com/vttapp/companion/imports"
)

// A pipe gets one line of JSON (scripts and the tests parse it); a person
// gets sentences, forced here with COMPANION_OUTPUT=text as a terminal
// would choose them.
func TestResultsAreJSONForScriptsAndSentencesForPeople(t *testing.T) {
	res := imports.Result{Kind: "module", ID: "m1", Name: "The Sunken Vault",
		Library:    &imports.LibraryReport{Pages: 12, Maps: 1, Encounters: 3, Entities: 7, Notes: []string{"2 images are missing"}},
		Compendium: &imports.CompendiumReport{Entities: 1, Skipped: map[string]int{"race": 2, "class": 1}}}
	human := func(w io.Writer) { describeImport(w, res) }

	t.Setenv("COMPANION_OUTPUT", "")
	var piped bytes.Buffer
	printResult(&piped, res, human)
	var back imports.Result
	if err := json.Unmarshal(piped.Bytes(), &back); err != nil || back.ID != "m1" || back.Library.Pages != 12 {
		t.Fatalf("a pipe got %q (%v), want the result as JSON", piped.String(), err)
	}
	if strings.Count(piped.String(), "\n") != 1 {
		t.Fatalf("the JSON is not one line: %q", piped.String())
	}

	t.Setenv("COMPANION_OUTPUT", "text")
	var shown bytes.Buffer
	printResult(&shown, res, human)
	for _, want := range []string{
		`Imported module "The Sunken Vault" (id m1).`,
		"1 entity written.",
		"Left out: 1 class, 2 race.",
		"12 pages, 1 map, 3 encounters, 7 entities.",
		"Note: 2 images are missing",
	} {
		if !strings.Contains(shown.String(), want) {
			t.Errorf("the text says:\n%s\nwant a line with %q", shown.String(), want)
		}
	}
	if strings.Contains(shown.String(), "{") {
		t.Errorf("the text holds JSON: %q", shown.String())
	}

	t.Setenv("COMPANION_OUTPUT", "json")
	var forced bytes.Buffer
	printResult(&forced, res, human)
	if !json.Valid(forced.Bytes()) {
		t.Fatalf("COMPANION_OUTPUT=json gave %q", forced.String())
	}
}

func TestTheOtherCommandsSayWhatTheyDid(t *testing.T) {
	for name, c := range map[string]struct {
		write func(io.Writer)
		want  []string
	}{
		"export": {func(w io.Writer) {
			describeExport(w, exportResult{Kind: "campaign", ID: "c1", File: "/tmp/c.campaign", Bytes: 3 << 20})
		}, []string{"Exported campaign c1 to /tmp/c.campaign (3.0 MiB)."}},
		"backup": {func(w io.Writer) {
			describeBackup(w, backup.Result{Path: "/b/1", DurationMs: 41, Manifest: backup.Manifest{Files: 1, Bytes: 2048, Linked: true}})
		}, []string{"Backed up to /b/1: the database and 1 file, 2.0 KiB, in 41 ms.", "hard links"}},
		"restore": {func(w io.Writer) {
			describeRestore(w, restored{Restored: "/data", From: "/b/1", Created: time.Date(2026, 3, 4, 5, 6, 0, 0, time.Local), Version: "1.2.0", MovedAside: "/data.before"})
		}, []string{"Restored /b/1 into /data (backup of 4 Mar 2026 05:06, Companion 1.2.0).", "now /data.before"}},
		"open": {func(w io.Writer) {
			describeOffer(w, imports.Offer{ID: "o1", Manifest: "https://example.org/m.json"})
		}, []string{"Offered https://example.org/m.json to the host console (offer o1)"}},
		"map image": {func(w io.Writer) {
			describeImport(w, imports.Result{Kind: "map", ID: "p", Name: "Cave", GridPending: true})
		}, []string{`Imported map "Cave" (id p).`, "Set its grid"}},
	} {
		var b bytes.Buffer
		c.write(&b)
		for _, want := range c.want {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s says %q, want %q", name, b.String(), want)
			}
		}
	}
}
