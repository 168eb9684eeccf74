// Command thirdparty writes THIRD_PARTY_LICENSES.txt for the release
// archives: the licence of every module linked into the companion binary on
// any release target, read from the module cache, then the Go standard
// library's (the runtime is linked too), then the web client's bundled
// packages (web/client/dist/THIRD_PARTY_LICENSES.txt, written by its own
// build). GoReleaser runs it as a before-hook (.goreleaser.yaml).
//
//	go run ./internal/tools/thirdparty -o build/THIRD_PARTY_LICENSES.txt
//
// "Linked" is what `go list -deps` of the main package gives for each
// target with the release build's tags and CGO_ENABLED=0, so a module that
// only tests use (chromedp) is not listed, and one used on a single
// platform (golang.org/x/sys/windows's module) is. A linked module without
// a licence file stops the release.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Targets are the release targets of .goreleaser.yaml (os/arch[/arm]); a
// test in cmd/companion holds the two lists equal.
var Targets = []string{"linux/amd64", "linux/arm64", "linux/arm/7", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// Tags are the release build's tags, also held equal to .goreleaser.yaml's.
var Tags = "netgo,osusergo"

var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents|unlicense)([._-].*)?$`)

type module struct {
	Path, Version, Dir string
}

func main() {
	out := flag.String("o", "THIRD_PARTY_LICENSES.txt", "file to write")
	mainPkg := flag.String("main", "./cmd/companion", "the main package of the release")
	web := flag.String("web", "web/client/dist/THIRD_PARTY_LICENSES.txt", "the web client's licence file, appended")
	flag.Parse()
	var buf bytes.Buffer
	if err := write(&buf, *mainPkg, *web); err != nil {
		fmt.Fprintln(os.Stderr, "thirdparty:", err)
		os.Exit(1)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "thirdparty:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "thirdparty:", err)
		os.Exit(1)
	}
}

func write(w io.Writer, mainPkg, webFile string) error {
	mods, err := linkedModules(mainPkg)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "Third-party software in the companion program, with its licences.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Part 1: Go modules linked into the program (on any release platform), and the Go")
	fmt.Fprintln(w, "standard library and runtime. Part 2: the packages bundled in the built-in web client.")
	for _, m := range mods {
		files, err := licenceFiles(m.Dir)
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("%s %s is linked but has no licence file in %s", m.Path, m.Version, m.Dir)
		}
		if err := section(w, m.Path+" "+m.Version, files); err != nil {
			return err
		}
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	version, _ := goEnv("GOVERSION")
	if err := section(w, "Go standard library and runtime ("+version+")", []string{filepath.Join(goroot, "LICENSE")}); err != nil {
		return err
	}
	web, err := os.ReadFile(webFile)
	if err != nil {
		return fmt.Errorf("the web client's licences: %w", err)
	}
	fmt.Fprintf(w, "\n\n%s\nPart 2: the built-in web client\n%s\n\n", strings.Repeat("#", 78), strings.Repeat("#", 78))
	_, err = w.Write(web)
	return err
}

// linkedModules lists the modules (not the main one) that provide a
// package linked into mainPkg on any target, sorted by path.
func linkedModules(mainPkg string) ([]module, error) {
	seen := map[string]module{}
	for _, target := range Targets {
		parts := strings.Split(target, "/")
		cmd := exec.Command("go", "list", "-deps", "-tags", Tags,
			"-f", "{{with .Module}}{{if not .Main}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}{{end}}", mainPkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+parts[0], "GOARCH="+parts[1])
		if len(parts) == 3 {
			cmd.Env = append(cmd.Env, "GOARM="+parts[2])
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list for %s: %v\n%s", target, err, stderr.String())
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			if len(f) != 3 || f[0] == "" {
				continue
			}
			if f[2] == "" {
				return nil, fmt.Errorf("%s %s is not in the module cache (go mod download)", f[0], f[1])
			}
			seen[f[0]] = module{Path: f[0], Version: f[1], Dir: f[2]}
		}
	}
	var mods []module
	for _, m := range seen {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods, nil
}

// licenceFiles are the licence and notice files at a module's root.
func licenceFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && licenceFile.MatchString(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

func section(w io.Writer, title string, files []string) error {
	fmt.Fprintf(w, "\n\n%s\n%s\n%s\n", strings.Repeat("=", 78), title, strings.Repeat("=", 78))
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if len(files) > 1 {
			fmt.Fprintf(w, "\n--- %s\n", filepath.Base(f))
		}
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(string(text), "\n"))
	}
	return nil
}

func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
