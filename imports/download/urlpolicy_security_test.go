package download

import (
	"net/http"
	"testing"

	"github.com/vttapp/companion/core"
)

// Adversarial URL texts against the import policy (contract 4.6 rule 5):
// http only for a host that is local judged from the text alone, https
// anywhere, never a DNS lookup.

func TestURLPolicyHostileHostsAreRefused(t *testing.T) {
	for _, tc := range []struct{ url, host string }{
		// Numeric forms other than canonical dotted IPv4 are names.
		{"http://0x7f.1/", "0x7f.1"},
		{"http://127.1/", "127.1"},
		{"http://0x7f000001/", "0x7f000001"},
		{"http://017700000001/", "017700000001"},
		// A local-looking label inside a public name.
		{"http://localhost.evil.com/", "localhost.evil.com"},
		{"http://evil.local.attacker.com/", "evil.local.attacker.com"},
		{"http://local/", "local"},
		// Userinfo is not the host.
		{"http://127.0.0.1@evil.com/", "evil.com"},
		{"http://127.0.0.1:80@evil.com/", "evil.com"},
		{"http://localhost%2f@evil.com/", "evil.com"},
		// Fragments and queries end the authority.
		{"http://evil.com#@127.0.0.1/", "evil.com"},
		{"http://evil.com?@127.0.0.1/", "evil.com"},
		// Unicode look-alikes are not localhost (Go's client would map the
		// full-width form to "localhost" by IDNA, so it must not pass as a name).
		{"http://ｌｏｃａｌｈｏｓｔ/", "ｌｏｃａｌｈｏｓｔ"},
		{"http://\u0131ocalhost/", "\u0131ocalhost"},
		{"http://xn--localhost-/", "xn--localhost-"},
		// IPv6 forms that are not loopback, unique-local or link-local.
		{"http://[::]/", "::"},
		{"http://[::127.0.0.1]/", "::127.0.0.1"},
		{"http://[64:ff9b::7f00:1]/", "64:ff9b::7f00:1"},
		{"http://[::ffff:8.8.8.8]/", "::ffff:8.8.8.8"},
		{"http://0.0.0.0/", "0.0.0.0"},
		// Malformed .local names: an empty label is not an mDNS name.
		{"http://..local/", "..local"},
		{"http://a..local/", "a..local"},
		// An address followed by a dot is a name to be looked up, not an
		// address: judged from the text it is not local.
		{"http://127.0.0.1./", "127.0.0.1."},
		{"http://192.168.1.1./", "192.168.1.1."},
		// Empty hosts.
		{"http:///x", ""},
		{"http://", ""},
		{"http:127.0.0.1", ""},
		{`http:\\127.0.0.1\`, ""},
	} {
		_, err := CheckSourceURL(tc.url)
		want := "Plain http can only be used for a source on the local network, not '" + tc.host + "'."
		if err == nil {
			t.Errorf("%q accepted", tc.url)
			continue
		}
		if core.KindOf(err) != core.KindInvalid || err.Error() != want {
			t.Errorf("%q: got %q, want %q", tc.url, err, want)
		}
	}
}

func TestURLPolicyMalformedTextIsRefusedClearly(t *testing.T) {
	for _, raw := range []string{
		"//127.0.0.1/x",                       // missing scheme
		"127.0.0.1/x",                         // missing scheme
		"http://[fe80::1%eth0]/",              // zone not percent-encoded
		"http://[fe80::1%25]/",                // empty zone
		"http://%6c%6f%63%61%6c%68%6f%73%74/", // percent-encoded host
		"http://loc%61lhost/",
		"http://a.local%2f.evil.com/",
		"http://evil.com\\@127.0.0.1/", // backslash in the authority
		"http://127.0.0.1\x00.evil.com/",
		"http://127.0.0.1\x0b/",
		"http://127.0.0.1\x7f/",
		"http://localhost%00.evil.com/",
		"http://[::1]x/",
		" http://127.0.0.1/",
		"http://127.0.0.1/\n",
		"https://",
		"https:///path",
		"https://:443/",
		"https:evil.com",
		"",
	} {
		_, err := CheckSourceURL(raw)
		if err == nil {
			t.Errorf("%q accepted", raw)
			continue
		}
		if core.KindOf(err) != core.KindInvalid || err.Error() == "" {
			t.Errorf("%q: %v (%s)", raw, err, core.KindOf(err))
		}
	}
}

func TestURLPolicyAcceptsLocalFormsExactly(t *testing.T) {
	for _, raw := range []string{
		"http://[fe80::1%25eth0]/a.module",
		"http://[fe80::1%25eth0]:8080/a.module",
		"http://localhost./a.module",
		"http://LOCALHOST/a.module",
		"http://foo.local/a.module",
		"http://foo.LOCAL./a.module",
		"http://my-nas.local/a.module",
		"HTTP://127.0.0.1/a.module",
		"HTTPS://example.com/a.module",
		"https://ｅｘａｍｐｌｅ.com/a.module", // https: any host
		// "%5c" in the userinfo is a literal backslash in the user name; the
		// host Go dials is 127.0.0.1, the same the policy judged.
		"http://evil.com%5c@127.0.0.1/a.module",
	} {
		u, err := CheckSourceURL(raw)
		if err != nil {
			t.Errorf("%q refused: %v", raw, err)
			continue
		}
		// The URL a request is made for must name the host that was judged.
		req, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			t.Errorf("%q: the checked URL cannot be requested: %v", raw, err)
			continue
		}
		if req.URL.Hostname() != u.Hostname() {
			t.Errorf("%q: judged host %q, requested host %q", raw, u.Hostname(), req.URL.Hostname())
		}
	}
}

func TestURLPolicyOtherSchemesNameTheScheme(t *testing.T) {
	for raw, scheme := range map[string]string{
		"ftp://example.org/x":     "ftp",
		"FILE:///etc/passwd":      "file",
		"javascript:alert(1)":     "javascript",
		"data:text/plain,hi":      "data",
		"gopher://127.0.0.1:25/x": "gopher",
		"ws://127.0.0.1/":         "ws",
		"HtTpS+x://example.org/":  "https+x",
	} {
		_, err := CheckSourceURL(raw)
		want := "Only https URLs can be imported from a link, not '" + scheme + "'."
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %q", raw, err, want)
		}
	}
}
