package imports

import (
	"testing"

	"github.com/vttapp/companion/core"
)

func TestParseLinkAccepts(t *testing.T) {
	for _, tc := range []struct {
		link string
		want Source
	}{
		{"vttapp://import?manifest=https%3A%2F%2Fexample.org%2Fbats%2Fmanifest.json", Source{Manifest: "https://example.org/bats/manifest.json"}},
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fbats.module", Source{URL: "https://example.org/bats.module"}},
		// The beta build's scheme takes the same links.
		{"vttapp-beta://import?url=https%3A%2F%2Fexample.org%2Fbats.module", Source{URL: "https://example.org/bats.module"}},
		// Rule 6: other parameters (analytics...) are ignored.
		{"vttapp://import?utm_source=mail&url=https%3A%2F%2Fexample.org%2Fa.uvtt&ref=x", Source{URL: "https://example.org/a.uvtt"}},
		// Rule 4: a raw inner URL is cut at its first '&'.
		{"vttapp://import?url=https://example.org/get?file=a.module&token=secret", Source{URL: "https://example.org/get?file=a.module"}},
		// Encoded '&' inside the inner URL survives.
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fget%3Ffile%3Da.module%26token%3Dsecret", Source{URL: "https://example.org/get?file=a.module&token=secret"}},
		// Scheme names are case-insensitive; an upper-case inner scheme is still https.
		{"VTTAPP://import?url=HTTPS%3A%2F%2Fexample.org%2Fa.module", Source{URL: "HTTPS://example.org/a.module"}},
		// An encoded '+' (%2B) is a plus sign.
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fa%2Bb.module", Source{URL: "https://example.org/a+b.module"}},
	} {
		got, err := ParseLink(tc.link)
		if err != nil {
			t.Errorf("%s: %v", tc.link, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.link, got, tc.want)
		}
	}
}

func TestParseLinkErrorsUseTheContractMessages(t *testing.T) {
	for _, tc := range []struct {
		link, msg string
	}{
		{"vttapp://import", MsgNoSource},
		{"vttapp://import?", MsgNoSource},
		{"vttapp://import?foo=bar", MsgNoSource},
		{"vttapp://import?manifest=https%3A%2F%2Fa.org%2Fm.json&url=https%3A%2F%2Fa.org%2Fx.module", MsgBothSources},
		{"vttapp-beta://import?url=https%3A%2F%2Fa.org%2Fx.module&manifest=https%3A%2F%2Fa.org%2Fm.json", MsgBothSources},
		{"vttapp://import?url=http%3A%2F%2Fexample.org%2Fx.module", MsgHTTPSOnly},
		// Links are https-only whatever the host, even on the local network.
		{"vttapp://import?url=http%3A%2F%2F192.168.1.10%2Fx.module", MsgHTTPSOnly},
		{"vttapp://import?url=file%3A%2F%2F%2Fetc%2Fpasswd", MsgHTTPSOnly},
		{"vttapp://import?url=ftp%3A%2F%2Fexample.org%2Fx.module", MsgHTTPSOnly},
		{"vttapp://import?url=example.org%2Fx.module", MsgHTTPSOnly},
		{"vttapp://import?url=", MsgHTTPSOnly},
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fmy file.module", MsgNotEncoded},
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fmy%20file.module", MsgNotEncoded},
		// Rule 5: form encoding with '+' for spaces is rejected.
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fmy+file.module", MsgNotEncoded},
		// Malformed percent-encoding.
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fx%ZZ.module", MsgNotEncoded},
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fx%2", MsgNotEncoded},
		{"vttapp://export?url=https%3A%2F%2Fexample.org%2Fx.module", MsgUnknownAction},
		{"vttapp://?url=https%3A%2F%2Fexample.org%2Fx.module", MsgUnknownAction},
		{"vttapp://", MsgUnknownAction},
	} {
		_, err := ParseLink(tc.link)
		if err == nil {
			t.Errorf("%s: accepted, want %q", tc.link, tc.msg)
			continue
		}
		if core.KindOf(err) != core.KindInvalid || err.Error() != tc.msg {
			t.Errorf("%s: got %q (%s), want %q", tc.link, err, core.KindOf(err), tc.msg)
		}
	}
}

func TestParseLinkRefusesOtherSchemes(t *testing.T) {
	for _, link := range []string{"https://example.org/import?url=x", "encounterplus://import?url=https%3A%2F%2Fa.org", "import?url=x", ""} {
		if _, err := ParseLink(link); err == nil {
			t.Errorf("%q accepted", link)
		}
	}
}
