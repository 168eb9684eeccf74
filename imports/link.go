package imports

import (
	"net/url"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/download"
)

// Link error messages shown to the reader (contract 4.10).
const (
	MsgNoSource      = "The link must include either a 'manifest' or a 'url' parameter"
	MsgBothSources   = "The link includes both 'manifest' and 'url'. Use only one"
	MsgHTTPSOnly     = "Only https URLs can be imported from a link"
	MsgNotEncoded    = download.MsgNotEncoded
	MsgUnknownAction = "Unknown link action"
)

// Link schemes: the plain one and the beta build's.
var linkSchemes = []string{"vttapp://", "vttapp-beta://"}

// Source is an import request: exactly one of Manifest and URL is set.
type Source struct {
	Manifest string `json:"manifest,omitempty"`
	URL      string `json:"url,omitempty"`
}

// Target returns the source URL, whichever it is.
func (s Source) Target() string {
	if s.Manifest != "" {
		return s.Manifest
	}
	return s.URL
}

// ParseLink reads a vttapp:// or vttapp-beta:// import link (contract 4.10).
// Parameters are split on '&' before decoding, so a raw inner URL is cut at
// its first '&' (rule 4); '+' is not decoded as a space (rule 5); other
// parameters are ignored (rule 6). Errors carry the exact messages of the
// contract's table.
func ParseLink(link string) (Source, error) {
	link = strings.TrimSpace(link)
	rest := ""
	for _, scheme := range linkSchemes {
		if len(link) >= len(scheme) && strings.EqualFold(link[:len(scheme)], scheme) {
			rest = link[len(scheme):]
			break
		}
	}
	if rest == "" && !hasLinkScheme(link) {
		return Source{}, core.Invalidf("Not an import link: it must start with vttapp:// or vttapp-beta://")
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i] // a fragment is neither action nor parameters
	}
	action, query, _ := strings.Cut(rest, "?")
	if !strings.EqualFold(strings.TrimSuffix(action, "/"), "import") {
		return Source{}, core.Invalidf("%s", MsgUnknownAction)
	}
	var src Source
	var manifestSeen, urlSeen bool
	for _, pair := range strings.Split(query, "&") {
		key, raw, _ := strings.Cut(pair, "=")
		if key != "manifest" && key != "url" {
			continue
		}
		if (key == "manifest" && manifestSeen) || (key == "url" && urlSeen) {
			continue // the first occurrence wins
		}
		if strings.Contains(raw, "+") {
			return Source{}, core.Invalidf("%s", MsgNotEncoded) // form-encoded: '+' for a space
		}
		value, err := url.PathUnescape(raw)
		if err != nil {
			return Source{}, core.Invalidf("%s", MsgNotEncoded)
		}
		if key == "manifest" {
			manifestSeen, src.Manifest = true, value
		} else {
			urlSeen, src.URL = true, value
		}
	}
	switch {
	case manifestSeen && urlSeen:
		return Source{}, core.Invalidf("%s", MsgBothSources)
	case !manifestSeen && !urlSeen:
		return Source{}, core.Invalidf("%s", MsgNoSource)
	}
	target := src.Target()
	if strings.ContainsAny(target, " \t\r\n") {
		return Source{}, core.Invalidf("%s", MsgNotEncoded)
	}
	u, err := url.Parse(target)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Hostname() == "" {
		return Source{}, core.Invalidf("%s", MsgHTTPSOnly)
	}
	return src, nil
}

func hasLinkScheme(link string) bool {
	for _, scheme := range linkSchemes {
		if strings.EqualFold(link, scheme) {
			return true
		}
	}
	return false
}
