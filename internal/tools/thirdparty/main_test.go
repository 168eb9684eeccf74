package main

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// TestListsWhatIsLinked: the modules linked into companion are listed with
// their licence text, a module only tests use is not, and the standard
// library's and the web client's licences follow.
func TestListsWhatIsLinked(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not on PATH")
	}
	var buf bytes.Buffer
	if err := write(&buf, "github.com/vttapp/companion/cmd/companion", "../../../web/client/dist/THIRD_PARTY_LICENSES.txt"); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"\nmodernc.org/sqlite v", "\ngithub.com/go-chi/chi/v5 v", "\ngolang.org/x/net v", "\nrsc.io/qr v",
		"\nGo standard library and runtime (go", "Part 2: the built-in web client", "pixi",
		"Permission is hereby granted", // a licence's text, not only its name
	} {
		if !strings.Contains(text, want) {
			t.Errorf("THIRD_PARTY_LICENSES.txt lacks %q", want)
		}
	}
	for _, testOnly := range []string{"chromedp", "getkin/kin-openapi"} {
		if strings.Contains(text, "\ngithub.com/"+strings.TrimPrefix(testOnly, "github.com/")) {
			t.Errorf("lists %s, which only tests use", testOnly)
		}
	}
}

// TestTargetsAreTheReleases: the targets and tags listed here are
// .goreleaser.yaml's (goos x goarch less its ignores, arm as armv7).
func TestTargetsAreTheReleases(t *testing.T) {
	data, err := os.ReadFile("../../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			Goos   []string `yaml:"goos"`
			Goarch []string `yaml:"goarch"`
			Goarm  []string `yaml:"goarm"`
			Tags   []string `yaml:"tags"`
			Ignore []struct {
				Goos   string `yaml:"goos"`
				Goarch string `yaml:"goarch"`
			} `yaml:"ignore"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil || len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	b := cfg.Builds[0]
	var want []string
	for _, goos := range b.Goos {
	arch:
		for _, goarch := range b.Goarch {
			for _, ig := range b.Ignore {
				if ig.Goos == goos && ig.Goarch == goarch {
					continue arch
				}
			}
			if goarch == "arm" {
				for _, v := range b.Goarm {
					want = append(want, goos+"/arm/"+v)
				}
				continue
			}
			want = append(want, goos+"/"+goarch)
		}
	}
	got := append([]string{}, Targets...)
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("Targets %v, release targets %v", got, want)
	}
	if Tags != strings.Join(b.Tags, ",") {
		t.Errorf("Tags %q, release tags %v", Tags, b.Tags)
	}
}
