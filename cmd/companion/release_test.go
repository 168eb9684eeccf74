package main

import (
	"net"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// The release archives (.goreleaser.yaml) and the container image
// (Dockerfile) must hold the same program: no Docker engine runs in CI, so
// these tests read both files and compare the build they describe.

type goreleaserConfig struct {
	Builds []struct {
		Main    string   `yaml:"main"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Tags    []string `yaml:"tags"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		Files []any `yaml:"files"`
	} `yaml:"archives"`
}

// dockerBuild is the go build the Dockerfile's build stage runs.
type dockerBuild struct {
	env     []string // KEY=VALUE before the command
	flags   []string // flags other than -tags, -ldflags, -o
	tags    []string
	ldflags string
	main    string
}

func readGoreleaser(t *testing.T) goreleaserConfig {
	t.Helper()
	data, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg goreleaserConfig
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml has %d builds, want 1", len(cfg.Builds))
	}
	return cfg
}

// dockerfile returns the Dockerfile's instructions, continuation lines
// joined and comments dropped.
func dockerfile(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && cur.Len() == 0) {
			continue
		}
		if rest, ok := strings.CutSuffix(trimmed, `\`); ok {
			cur.WriteString(rest + " ")
			continue
		}
		cur.WriteString(trimmed)
		out = append(out, cur.String())
		cur.Reset()
	}
	return out
}

// shellWords splits a command line as sh would, for the quoting the
// Dockerfile uses (double quotes).
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inQuotes, started := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQuotes, started = !inQuotes, true
		case (r == ' ' || r == '\t') && !inQuotes:
			if started {
				words = append(words, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if started {
		words = append(words, cur.String())
	}
	return words
}

func parseDockerBuild(t *testing.T, lines []string) dockerBuild {
	t.Helper()
	var runs []string
	for _, l := range lines {
		if strings.HasPrefix(l, "FROM scratch") {
			break // the build stage ends here
		}
		if strings.HasPrefix(l, "RUN ") && strings.Contains(l, "go build") {
			runs = append(runs, strings.TrimPrefix(l, "RUN "))
		}
	}
	if len(runs) != 1 {
		t.Fatalf("the Dockerfile's build stage has %d go build commands, want 1: %q", len(runs), runs)
	}
	words := shellWords(runs[0])
	var b dockerBuild
	i := 0
	for ; i < len(words) && words[i] != "go"; i++ {
		if strings.Contains(words[i], "=") {
			b.env = append(b.env, words[i])
		}
	}
	if i+1 >= len(words) || words[i+1] != "build" {
		t.Fatalf("not a go build: %q", words)
	}
	for i += 2; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-tags":
			i++
			b.tags = strings.Split(words[i], ",")
		case w == "-ldflags":
			i++
			b.ldflags = words[i]
		case w == "-o":
			i++
		case strings.HasPrefix(w, "-"):
			b.flags = append(b.flags, w)
		default:
			b.main = w
		}
	}
	return b
}

// TestDockerfileBuildsTheReleaseProgram: same environment (CGO_ENABLED=0),
// flags, tags, ldflags (the Dockerfile's build arguments standing for
// GoReleaser's templates) and main package.
func TestDockerfileBuildsTheReleaseProgram(t *testing.T) {
	rel := readGoreleaser(t).Builds[0]
	doc := parseDockerBuild(t, dockerfile(t))
	for _, e := range rel.Env {
		if !slices.Contains(doc.env, e) {
			t.Errorf("the Dockerfile's go build lacks %s (release env %v, Dockerfile %v)", e, rel.Env, doc.env)
		}
	}
	if !slices.Contains(doc.env, "CGO_ENABLED=0") {
		t.Errorf("the Dockerfile's build is not static: no CGO_ENABLED=0 in %v", doc.env)
	}
	if !slices.Equal(doc.flags, rel.Flags) {
		t.Errorf("flags: Dockerfile %v, release %v", doc.flags, rel.Flags)
	}
	if !slices.Equal(doc.tags, rel.Tags) {
		t.Errorf("tags: Dockerfile %v, release %v", doc.tags, rel.Tags)
	}
	templates := regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)
	releaseLd := templates.ReplaceAllStringFunc(strings.Join(rel.Ldflags, " "), func(m string) string {
		switch templates.FindStringSubmatch(m)[1] {
		case "Version":
			return "${VERSION}"
		case "FullCommit":
			return "${COMMIT}"
		case "Date":
			return "${DATE}"
		}
		return m
	})
	if doc.ldflags != releaseLd {
		t.Errorf("ldflags:\nDockerfile %s\nrelease    %s", doc.ldflags, releaseLd)
	}
	if doc.main != rel.Main {
		t.Errorf("main package: Dockerfile %q, release %q", doc.main, rel.Main)
	}
	for _, v := range []string{"Version", "Commit", "Date"} {
		if !strings.Contains(releaseLd, "github.com/vttapp/companion/core."+v+"=") {
			t.Errorf("the release does not stamp core.%s", v)
		}
	}
}

// TestContainerImageContract: the image runs as a user without
// privileges, keeps its data in the /data volume, documents both ports and
// checks its health with the program itself.
func TestContainerImageContract(t *testing.T) {
	lines := dockerfile(t)
	final := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "FROM ") {
			final = i
		}
	}
	if final < 0 || lines[final] != "FROM scratch" {
		t.Fatalf("the final stage is not FROM scratch (a static binary needs nothing else)")
	}
	stage := lines[final:]
	want := map[string]func(string) bool{
		"USER":        func(v string) bool { return v != "" && !strings.HasPrefix(v, "0") && !strings.HasPrefix(v, "root") },
		"VOLUME":      func(v string) bool { return v == "/data" },
		"EXPOSE":      func(v string) bool { return v == "8080 8081" },
		"HEALTHCHECK": func(v string) bool { return strings.Contains(v, `CMD ["/usr/local/bin/companion", "health"]`) },
		"ENV":         func(v string) bool { return strings.Contains(v, "COMPANION_DATA=/data") },
	}
	for instr, ok := range want {
		found := false
		for _, l := range stage {
			if v, has := strings.CutPrefix(l, instr+" "); has && ok(v) {
				found = true
			}
		}
		if !found {
			t.Errorf("the final stage lacks the expected %s", instr)
		}
	}
}

// TestComposeKeepsTheHostConsoleOnTheHost: no service publishes the host
// console beyond the host's loopback.
func TestComposeKeepsTheHostConsoleOnTheHost(t *testing.T) {
	data, err := os.ReadFile("../../compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			NetworkMode string   `yaml:"network_mode"`
			Ports       []string `yaml:"ports"`
			Command     []string `yaml:"command"`
			Volumes     []string `yaml:"volumes"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &compose); err != nil {
		t.Fatal(err)
	}
	if len(compose.Services) == 0 {
		t.Fatal("no services")
	}
	for name, s := range compose.Services {
		if !slices.Contains(s.Volumes, "companion-data:/data") {
			t.Errorf("%s keeps its data outside the volume: %v", name, s.Volumes)
		}
		if s.NetworkMode == "host" {
			if len(s.Ports) > 0 || slices.Contains(s.Command, "--host-addr-container") {
				t.Errorf("%s: host networking needs no published port and no --host-addr-container", name)
			}
			continue
		}
		for _, p := range s.Ports {
			if strings.HasSuffix(p, ":8081") && !strings.HasPrefix(p, "127.0.0.1:") {
				t.Errorf("%s publishes the host console beyond the host's loopback: %s", name, p)
			}
		}
		if slices.Contains(s.Ports, "127.0.0.1:8081:8081") != slices.Contains(s.Command, "--host-addr-container") {
			t.Errorf("%s: the console's port is published on loopback exactly when it binds with --host-addr-container: ports %v, command %v", name, s.Ports, s.Command)
		}
	}
}

// TestArchivesHoldTheDocuments: README, LICENSE and the third-party
// licences go into every archive.
func TestArchivesHoldTheDocuments(t *testing.T) {
	cfg := readGoreleaser(t)
	if len(cfg.Archives) != 1 {
		t.Fatalf("%d archives", len(cfg.Archives))
	}
	text, _ := yaml.Marshal(cfg.Archives[0].Files)
	for _, want := range []string{"README.md", "LICENSE", "THIRD_PARTY_LICENSES.txt"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the archives lack %s", want)
		}
	}
}

// TestArchiveREADMEIsForGameMasters: the README.md an archive carries is
// the short guide for the person who downloaded the program (start it, let
// players join, where the data lives), not the repository's, which opens
// with go run and go test for contributors (issue 33). What it says of
// addresses, folders and commands is held to the code: the default ports,
// the default data folder on each system, the commands that exist. It
// links nowhere: an archive holds no docs/ folder.
func TestArchiveREADMEIsForGameMasters(t *testing.T) {
	cfg := readGoreleaser(t)
	src := ""
	for _, f := range cfg.Archives[0].Files {
		if m, ok := f.(map[string]any); ok && m["dst"] == "README.md" {
			src, _ = m["src"].(string)
		}
		if f == "README.md" {
			t.Errorf("the archives carry the repository's README.md")
		}
	}
	if src == "" {
		t.Fatalf("no file of .goreleaser.yaml's archives becomes README.md: %v", cfg.Archives[0].Files)
	}
	data, err := os.ReadFile("../../" + src)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, bad := range []string{"go run", "go test", "](", "docs/"} {
		if strings.Contains(text, bad) {
			t.Errorf("%s says %q: it is for game masters, and the archive holds nothing to link to", src, bad)
		}
	}
	for _, section := range []string{"## Start it", "## Your players join", "## Where your data lives"} {
		if !strings.Contains(text, section) {
			t.Errorf("%s has no %q", src, section)
		}
	}
	cfgServe, fs, err := parseServeFlags(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	_, playerPort, _ := net.SplitHostPort(cfgServe.Addr)
	for _, want := range []string{
		"http://" + defaultHostAddr + "/host/",      // the host console
		":" + playerPort + "/client/",               // the players' page
		"`~/.local/share/companion`",                // defaultDataDir on Linux
		"`~/Library/Application Support/Companion`", // on macOS (UserConfigDir)
		"`%AppData%\\Companion`",                    // on Windows (UserConfigDir)
		"`./companion --data FOLDER`", "`./companion backup`", "`./companion restore --replace BACKUP`",
		"`./companion help`", "`./companion serve -h`",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("%s does not say %s", src, want)
		}
	}
	// Every command it names exists.
	for _, m := range regexp.MustCompile("`\\./companion ([a-z-]+)").FindAllStringSubmatch(text, -1) {
		if !strings.Contains(usage+"companion help", "companion "+m[1]) && !strings.HasPrefix(m[1], "-") {
			t.Errorf("%s names the command %q, which companion help does not list", src, m[1])
		}
	}
	if fs.Lookup("data") == nil || fs.Lookup("mdns-name") == nil || fs.Lookup("remote-interaction") == nil {
		t.Errorf("serve lacks a flag the README tells of (--data, the name players type, what players may move)")
	}
}

// --help prints the defaults of the flags whose values are words (auto,
// all): the flag package prints a default only when it differs from the
// zero flag's text, which must therefore be empty.
func TestHelpPrintsEveryDefault(t *testing.T) {
	_, fs, err := parseServeFlags(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	fs.SetOutput(&out)
	fs.PrintDefaults()
	for _, want := range []string{"(default auto)", "(default all)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve --help does not say %s:\n%s", want, out.String())
		}
	}
}
