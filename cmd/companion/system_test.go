package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureCopy copies the systems package's tinyrpg fixture to a temp dir.
func fixtureCopy(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "systems", "testdata", "tinyrpg")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestRunSystemTest(t *testing.T) {
	dir := fixtureCopy(t)
	var out, errOut bytes.Buffer
	if code := runSystem([]string{"test", "-update", dir}, &out, &errOut); code != 0 {
		t.Fatalf("update: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := runSystem([]string{"test", dir}, &out, &errOut); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	file := filepath.Join(dir, "tests", "hero.txtar")
	data, _ := os.ReadFile(file)
	changed := strings.Replace(string(data), "Ayla, 3rd level", "Ayla, 4th level", 1)
	if changed == string(data) {
		t.Fatalf("hero case does not hold the expected summary:\n%s", data)
	}
	os.WriteFile(file, []byte(changed), 0o644)
	out.Reset()
	if code := runSystem([]string{"test", dir, "-update=false"}, &out, &errOut); code != 1 {
		t.Fatalf("mismatch must exit 1, got %d\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "FAIL hero: view.json differs") || !strings.Contains(out.String(), "+  \"summary\": \"Ayla, 3rd level\"") {
		t.Fatalf("diff output:\n%s", out.String())
	}
}

func TestRunSystemUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	for _, args := range [][]string{nil, {"lint"}, {"test"}, {"test", "a", "b"}, {"test", "-bogus", "x"}} {
		errOut.Reset()
		if code := runSystem(args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code := runSystem([]string{"test", t.TempDir()}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "system.json") {
		t.Fatalf("a folder without a system: exit %d, %s", code, errOut.String())
	}
}

func TestRunSystemNew(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "heist")
	var out, errOut bytes.Buffer
	if code := runSystem([]string{"new", "heist", dir}, &out, &errOut); code != 0 {
		t.Fatalf("new: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := runSystem([]string{"test", dir}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "ok   hero-example") {
		t.Fatalf("the new folder's tests: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if code := runSystem([]string{"new", "heist", dir}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "not empty") {
		t.Fatalf("over an existing folder: exit %d %s", code, errOut.String())
	}
}
