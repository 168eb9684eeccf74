package download

import (
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// FuzzCheckSourceURL checks the invariants of the URL policy on any text:
// it never panics, every refusal is an Invalid error, and an accepted URL
// is one the fetcher would request from the very host that was judged —
// https, or http to a host whose text says it is local.
func FuzzCheckSourceURL(f *testing.F) {
	for _, seed := range []string{
		"https://example.org/a.module", "http://localhost/a", "http://127.0.0.1/", "http://[::1]:8080/",
		"http://[fe80::1%25eth0]/", "http://0x7f.1/", "http://127.1/", "http://[::ffff:7f00:1]/", "http://127.0.0.2/", "http://[::ffff:127.0.0.1]/",
		"http://localhost./", "http://localhost.evil.com/", "http://evil.local.attacker.com/", "http://foo.local/",
		"http://ｌｏｃａｌｈｏｓｔ/", "http://%6c%6f%63%61%6c%68%6f%73%74/", "http://127.0.0.1@evil.com/",
		`http://evil.com\@127.0.0.1/`, "http://evil.com%5c@127.0.0.1/", "http:///x", "//127.0.0.1/", "HTTPS://X/",
		"http://127.0.0.1\t/", "http://2130706433/", "http://0177.0.0.1/", "http://..local/", "http://127.0.0.1./",
		"file:///etc/passwd", "javascript:alert(1)", "%zz", "", "http://10.0.0.1:99999/x", "https://example.org:0/", "http://127.0.0.1:0080/",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := CheckSourceURL(raw)
		if err != nil {
			if core.KindOf(err) != core.KindInvalid {
				t.Fatalf("%q: error of kind %s: %v", raw, core.KindOf(err), err)
			}
			return
		}
		scheme := strings.ToLower(u.Scheme)
		if scheme != "https" && scheme != "http" {
			t.Fatalf("%q accepted with scheme %q", raw, u.Scheme)
		}
		if u.Hostname() == "" {
			t.Fatalf("%q accepted without a host", raw)
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				t.Fatalf("%q accepted with port %q", raw, p)
			}
		}
		if scheme == "http" && !textSaysLocal(u.Hostname()) {
			t.Fatalf("%q accepted over plain http for host %q", raw, u.Hostname())
		}
		// What Fetch requests is u.String(): it must parse back to the same
		// host and pass the policy again (redirect checks use the same path).
		req, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			t.Fatalf("%q accepted but %q cannot be requested: %v", raw, u.String(), err)
		}
		if req.URL.Hostname() != u.Hostname() {
			t.Fatalf("%q: judged host %q, requested host %q", raw, u.Hostname(), req.URL.Hostname())
		}
		if _, err := CheckSourceURL(u.String()); err != nil {
			t.Fatalf("%q accepted, but its serialisation %q is refused: %v", raw, u.String(), err)
		}
	})
}

// textSaysLocal is an independent statement of rule 4.6.5: 127.0.0.1,
// ::1, an IP literal in an RFC 1918, unique-local or link-local range (not
// an IPv4 address in IPv6 form), localhost, or a well-formed name under
// .local.
func textSaysLocal(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Is4In6() {
			return false
		}
		s := ip.WithZone("").String()
		return s == "127.0.0.1" || s == "::1" || ip.IsPrivate() || ip.IsLinkLocalUnicast()
	}
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" {
		return true
	}
	labels := strings.Split(h, ".")
	if len(labels) < 2 || labels[len(labels)-1] != "local" {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return false
		}
	}
	return true
}
