package systems

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyDir copies a fixture folder into a temporary one.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestGoldenUpdateThenPassThenDiff(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	var out bytes.Buffer
	failed, err := RunGolden(dir, true, &out)
	if err != nil || failed != 0 {
		t.Fatalf("update: failed=%d err=%v\n%s", failed, err, out.String())
	}
	written, _ := os.ReadFile(filepath.Join(dir, "tests", "goblin.txtar"))
	for _, want := range []string{"-- list.json --\n{\n  \"id\": ", "-- view.json --", "\"cr\": \"1/4\"", "-- page.html --\n<!DOCTYPE html>", "<strong>mean</strong>"} {
		if !strings.Contains(string(written), want) {
			t.Fatalf("updated case lacks %q:\n%s", want, written)
		}
	}
	out.Reset()
	failed, err = RunGolden(dir, false, &out)
	if err != nil || failed != 0 {
		t.Fatalf("check after update: failed=%d err=%v\n%s", failed, err, out.String())
	}
	if !strings.Contains(out.String(), "PASS: 2 cases") {
		t.Fatalf("summary: %s", out.String())
	}

	// Change one stored value: the case fails with a readable diff.
	changed := strings.Replace(string(written), `"cr": "1/4"`, `"cr": "1/2"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "tests", "goblin.txtar"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	failed, err = RunGolden(dir, false, &out)
	if err != nil || failed != 1 {
		t.Fatalf("after a change: failed=%d err=%v\n%s", failed, err, out.String())
	}
	for _, want := range []string{"FAIL goblin: view.json differs:", "--- tests/goblin.txtar view.json (stored)", `-  "cr": "1/2",`, `+  "cr": "1/4",`, "@@ -", "ok   hero", "FAIL: 1 of 2 cases"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestGoldenMissingSectionAndBrokenSystem(t *testing.T) {
	dir := copyDir(t, "testdata/tinyrpg")
	var out bytes.Buffer
	failed, err := RunGolden(dir, false, &out) // fixture cases hold only entity.json
	if err != nil || failed != 2 || !strings.Contains(out.String(), "no list.json section (run with -update to write it)") {
		t.Fatalf("failed=%d err=%v\n%s", failed, err, out.String())
	}
	if err := os.WriteFile(filepath.Join(dir, "system.lua"), []byte("local x = = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = RunGolden(dir, false, &out)
	if err == nil || !strings.Contains(err.Error(), "system.lua:1: syntax error") {
		t.Fatalf("broken system: %v", err)
	}
}

func TestUnifiedDiff(t *testing.T) {
	want := "a\nb\nc\nd\ne\nf\ng\nh\ni\n"
	got := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\n"
	d := unifiedDiff("want", "got", want, got)
	expect := "--- want\n+++ got\n@@ -1,9 +1,10 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n h\n i\n+j\n"
	if d != expect {
		t.Fatalf("diff:\n%s\nwant:\n%s", d, expect)
	}
	if unifiedDiff("a", "b", "same\n", "same\n") != "" {
		t.Fatal("equal texts must give no diff")
	}
	far := unifiedDiff("w", "g", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "x\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ny\n")
	if strings.Count(far, "@@") != 4 {
		t.Fatalf("distant changes must make two hunks:\n%s", far)
	}
}
