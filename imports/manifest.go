package imports

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/download"
)

// Package is a package manifest: a JSON file describing a system or module,
// its version and where to download it (docs/content-format.md, schema in
// schemas/package.schema.json).
type Package struct {
	ID            string         `json:"id"`
	Name          string         `json:"name"`
	Type          string         `json:"type"`
	Category      string         `json:"category,omitempty"`
	System        string         `json:"system,omitempty"`
	Version       string         `json:"version"`
	Download      string         `json:"download"`
	SHA256        string         `json:"sha256,omitempty"`
	Changelog     string         `json:"changelog,omitempty"`
	Compatibility *Compatibility `json:"compatibility,omitempty"`
	Repository    string         `json:"repository,omitempty"`
	Website       string         `json:"website,omitempty"`
	Description   string         `json:"description,omitempty"`
	Content       string         `json:"content,omitempty"`
	Authors       []Author       `json:"authors,omitempty"`
	Media         []string       `json:"media,omitempty"`
	Featured      bool           `json:"featured,omitempty"`
	Modified      string         `json:"modified,omitempty"`
	Created       string         `json:"created,omitempty"`
}

// Compatibility bounds the application versions a package supports; both
// bounds are inclusive and a missing one means no limit.
type Compatibility struct {
	Minimum string `json:"minimum,omitempty"`
	Maximum string `json:"maximum,omitempty"`
}

// Author credits a package's author.
type Author struct {
	Name  string `json:"name"`
	URL   string `json:"url,omitempty"`
	Email string `json:"email,omitempty"`
}

// ParsePackage validates a manifest against the schema and checks that its
// download URL passes the URL policy.
func ParsePackage(data []byte) (*Package, error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, core.Invalidf("the package manifest must be a JSON object")
	}
	if err := content.ValidatePackageJSON(data); err != nil {
		return nil, err
	}
	var p Package
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, core.Invalidf("package manifest: %s", core.JSONErrorText(err))
	}
	if _, err := download.CheckSourceURL(p.Download); err != nil {
		return nil, core.Invalidf("package manifest download: %s", core.MessageOf(err))
	}
	return &p, nil
}

// Compatible reports whether the package supports the application version
// app (an empty app version is compatible with everything).
func (p *Package) Compatible(app string) bool {
	if p.Compatibility == nil || app == "" {
		return true
	}
	if min := p.Compatibility.Minimum; min != "" && CompareVersions(app, min) < 0 {
		return false
	}
	if max := p.Compatibility.Maximum; max != "" && CompareVersions(app, max) > 0 {
		return false
	}
	return true
}

// FetchPackage downloads and parses a manifest under the manifest limits.
func FetchPackage(ctx context.Context, f *download.Fetcher, raw string, lim Limits) (*Package, error) {
	lim = lim.WithDefaults()
	var buf bytes.Buffer
	got, err := f.Fetch(ctx, raw, lim.MaxManifestBytes, lim.ManifestTimeout, &buf, nil)
	if err != nil {
		return nil, err
	}
	p, err := ParsePackage(buf.Bytes())
	if err != nil {
		return nil, err
	}
	// The download is where the manifest sends the device next: like a
	// redirect, it may not go from https to plain http, or a public https
	// page could point the device at its own local network.
	from, err := url.Parse(got.FinalURL)
	if err != nil {
		return nil, core.Invalidf("package manifest: cannot read its own address: %v", err)
	}
	to, err := url.Parse(p.Download)
	if err != nil {
		return nil, core.Invalidf("package manifest download: %v", err)
	}
	if download.IsHTTPS(from) && !download.IsHTTPS(to) {
		return nil, core.Invalidf("package manifest download: the manifest came over https, so its download must use https too, not plain http (%s)", to.Redacted())
	}
	return p, nil
}
