package systems

import (
	"strings"
	"testing"
)

func TestSheetDeclarations(t *testing.T) {
	withTally := strings.Replace(percentile, `rollOptions = {`, `health = "Sanity", tallies = {
    { key = "luck", title = "Luck spent", most = 5, marks = { { key = "spent", title = "Spent" } } },
  },
  rollOptions = {`, 1)
	s := loadPercentile(t, withTally)
	if s.HealthTitle("sleuth") != "Sanity" || s.HealthTitle("nobody") != "Health" {
		t.Fatalf("health titles %q %q", s.HealthTitle("sleuth"), s.HealthTitle("nobody"))
	}
	if tl := s.Tallies("sleuth"); len(tl) != 1 || tl[0].Most != 5 || tl[0].Shown != "always" || tl[0].Marks[0].ID != "spent" {
		t.Fatalf("tallies %+v", tl)
	}
	bad := strings.Replace(percentile, `rollOptions = {`, `tallies = {
    { key = "luck", title = "Luck", most = 99, shown = "sometimes", marks = { { key = "x" } }, colour = "red" },
    "dice",
  },
  rollOptions = {`, 1)
	got := problemsOf(t, map[string]string{"system.json": okManifest, "templates/sleuth.html": "x", "system.lua": bad})
	expectProblems(t, got, "tallies[1] most must be a whole number from 1 to 20", `tallies[1] shown must be "always" or "down"`,
		"tallies[1] marks[1] must be", `tallies[1] has unknown field "colour"`, "tallies[2] must be a table")
}
