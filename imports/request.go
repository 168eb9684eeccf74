package imports

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"unicode/utf8"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/download"
)

// MaxRequestBytes caps the JSON body of POST /api/import.
const MaxRequestBytes = 64 << 10

// Request-level explanations of POST /api/import (contract 4.6).
const (
	MsgBodyAndQuery = "The source must be given either in the JSON body or in the query string, not both"
	MsgBodyNotJSON  = "The request body must be a JSON object such as {\"url\": \"https://...\"}"
	MsgBadQuery     = "The query string is not properly percent-encoded"
)

// ParseImportRequest reads the source of POST /api/import (contract 4.6):
// exactly one of manifest and url, in a JSON body or in the query string
// but not both, other parameters ignored, and the URL policy applied.
func ParseImportRequest(r *http.Request) (Source, error) {
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return Source{}, core.Invalidf("%s", MsgBadQuery)
	}
	fromQuery := sourceFrom(func(key string) (string, bool) {
		vs, ok := query[key]
		if !ok || len(vs) == 0 {
			return "", false
		}
		return vs[0], true
	})
	fromBody, err := bodySource(r)
	if err != nil {
		return Source{}, err
	}
	var src partialSource
	switch {
	case fromBody.any() && fromQuery.any():
		return Source{}, core.Invalidf("%s", MsgBodyAndQuery)
	case fromBody.any():
		src = fromBody
	default:
		src = fromQuery
	}
	switch {
	case src.hasManifest && src.hasURL:
		return Source{}, core.Invalidf("%s", MsgBothSources)
	case !src.hasManifest && !src.hasURL:
		return Source{}, core.Invalidf("%s", MsgNoSource)
	}
	if _, err := download.CheckSourceURL(src.Target()); err != nil {
		return Source{}, err
	}
	return src.Source, nil
}

// partialSource records which parameters were present, even empty.
type partialSource struct {
	Source
	hasManifest, hasURL bool
}

func (p partialSource) any() bool { return p.hasManifest || p.hasURL }

func sourceFrom(get func(key string) (string, bool)) partialSource {
	var p partialSource
	p.Manifest, p.hasManifest = get("manifest")
	p.URL, p.hasURL = get("url")
	return p
}

// bodySource reads manifest and url from a JSON object body; an empty body
// gives no source.
func bodySource(r *http.Request) (partialSource, error) {
	if r.Body == nil {
		return partialSource{}, nil
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBytes+1))
	if err != nil {
		return partialSource{}, core.Invalidf("the request body cannot be read: %v", err)
	}
	if len(data) > MaxRequestBytes {
		return partialSource{}, core.Invalidf("the request body is larger than %d bytes", MaxRequestBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return partialSource{}, nil
	}
	if !utf8.Valid(data) {
		// encoding/json would turn the bad bytes into U+FFFD and fetch a
		// URL other than the one sent.
		return partialSource{}, core.Invalidf("the request body is not valid UTF-8 text")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || fields == nil {
		return partialSource{}, core.Invalidf("%s", MsgBodyNotJSON)
	}
	var bad error
	p := sourceFrom(func(key string) (string, bool) {
		raw, ok := fields[key]
		if !ok || string(raw) == "null" {
			return "", false
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil && bad == nil {
			bad = core.Invalidf("'%s' must be a string holding a URL", key)
		}
		return s, true
	})
	return p, bad
}
