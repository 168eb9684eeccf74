package imports

import (
	"net/url"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// linkMessages are the only explanations a link refusal may carry: the
// contract's table, plus the one for text that is not a link at all.
var linkMessages = map[string]bool{
	MsgNoSource: true, MsgBothSources: true, MsgHTTPSOnly: true, MsgNotEncoded: true, MsgUnknownAction: true,
	"Not an import link: it must start with vttapp:// or vttapp-beta://": true,
}

// FuzzParseLink checks that any link text is either refused with a table
// message or gives exactly one source that is an https URL with a host and
// no whitespace.
func FuzzParseLink(f *testing.F) {
	for _, seed := range []string{
		"vttapp://import?manifest=https%3A%2F%2Fexample.org%2Fm.json",
		"vttapp-beta://import?url=https%3A%2F%2Fexample.org%2Fa.module",
		"vttapp://import?url=https://example.org/get?file=a.module&token=secret",
		"vttapp://import?url=https%3A%2F%2Fexample.org%2Fmy+file.module",
		"vttapp://import?url=https%253A%252F%252Fexample.org",
		"vttapp://import?url=http%3A%2F%2F127.0.0.1%2F",
		"vttapp://import?manifest=a&url=b",
		"vttapp://export?url=x", "vttapp://", "vttapp://import#url=x", "VTTAPP://IMPORT/?url=%zz", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, link string) {
		src, err := ParseLink(link)
		if err != nil {
			if core.KindOf(err) != core.KindInvalid || !linkMessages[err.Error()] {
				t.Fatalf("%q: unexpected error %q (%s)", link, err, core.KindOf(err))
			}
			return
		}
		if (src.Manifest == "") == (src.URL == "") {
			t.Fatalf("%q: not exactly one source: %+v", link, src)
		}
		target := src.Target()
		if strings.ContainsAny(target, " \t\r\n") {
			t.Fatalf("%q: source with whitespace %q", link, target)
		}
		u, err := url.Parse(target)
		if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Hostname() == "" {
			t.Fatalf("%q: source %q is not an https URL with a host", link, target)
		}
	})
}
