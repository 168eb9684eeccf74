package download

import (
	"fmt"
	"testing"
)

const (
	plainHTTP = "Plain http can only be used for a source on the local network, not '%s'."
	onlyHTTPS = "Only https URLs can be imported from a link, not '%s'."
)

func TestSourceURLPolicyAccepts(t *testing.T) {
	for _, u := range []string{
		"https://example.org/a.module",
		"https://8.8.8.8/a.module",
		"HTTPS://EXAMPLE.ORG/a.module",
		"https://user:pw@example.org:8443/a.module",
		"http://localhost/a.module",
		"http://LOCALHOST:8080/a.module",
		"http://localhost./a.module",
		"HTTP://127.0.0.1/a.module",
		"http://10.0.0.1/a.module",
		"http://172.16.0.1/a.module",
		"http://172.31.255.254/a.module",
		"http://192.168.1.20:8080/a.module",
		"http://169.254.10.10/a.module",
		"http://nas.local/a.module",
		"http://NAS.LOCAL./a.module",
		"http://[::1]/a.module",
		"http://[::1]:8080/a.module",
		"http://[fd12:3456::1]/a.module",
		"http://[fc00::1]/a.module",
		"http://[fe80::1]/a.module",
		"http://[fe80::1%25eth0]:80/a.module",
		"http://user:secret@192.168.1.2/a.module",
		"http://10.0.0.1:65535/a.module",
		"https://example.org:1/a.module",
		"https://example.org:/a.module",
	} {
		if _, err := CheckSourceURL(u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
}

func TestSourceURLPolicyRefuses(t *testing.T) {
	for _, tc := range []struct{ url, msg string }{
		{"http://example.org/a.module", fmt.Sprintf(plainHTTP, "example.org")},
		{"HTTP://Example.ORG/a.module", fmt.Sprintf(plainHTTP, "Example.ORG")},
		// A public name that resolves to a private address is still refused:
		// the decision is made from the text, never by a lookup.
		{"http://localtest.me/a.module", fmt.Sprintf(plainHTTP, "localtest.me")},
		{"http://127.0.0.1.nip.io/a.module", fmt.Sprintf(plainHTTP, "127.0.0.1.nip.io")},
		{"http://8.8.8.8/a.module", fmt.Sprintf(plainHTTP, "8.8.8.8")},
		{"http://172.32.0.1/a.module", fmt.Sprintf(plainHTTP, "172.32.0.1")},
		{"http://[2001:db8::1]/a.module", fmt.Sprintf(plainHTTP, "2001:db8::1")},
		{"http://[::ffff:8.8.8.8]/a.module", fmt.Sprintf(plainHTTP, "::ffff:8.8.8.8")},
		// Rule 4.6.5 names 127.0.0.1, not the rest of 127/8, and IPv6
		// forms of IPv4 addresses are in none of its ranges.
		{"http://127.0.0.2/a.module", fmt.Sprintf(plainHTTP, "127.0.0.2")},
		{"http://127.8.9.10:9000/a.module", fmt.Sprintf(plainHTTP, "127.8.9.10")},
		{"http://[::ffff:127.0.0.1]/a.module", fmt.Sprintf(plainHTTP, "::ffff:127.0.0.1")},
		{"http://[::ffff:7f00:1]/a.module", fmt.Sprintf(plainHTTP, "::ffff:7f00:1")},
		{"http://[::ffff:192.168.0.1]/a.module", fmt.Sprintf(plainHTTP, "::ffff:192.168.0.1")},
		// Numeric tricks are names, not addresses: not local.
		{"http://2130706433/a.module", fmt.Sprintf(plainHTTP, "2130706433")},
		{"http://0177.0.0.1/a.module", fmt.Sprintf(plainHTTP, "0177.0.0.1")},
		{"http://0x7f.0.0.1/a.module", fmt.Sprintf(plainHTTP, "0x7f.0.0.1")},
		{"http://127.1/a.module", fmt.Sprintf(plainHTTP, "127.1")},
		{"http://0.0.0.0/a.module", fmt.Sprintf(plainHTTP, "0.0.0.0")},
		// Userinfo does not fool the host check.
		{"http://127.0.0.1@evil.example/a.module", fmt.Sprintf(plainHTTP, "evil.example")},
		{"http://local/a.module", fmt.Sprintf(plainHTTP, "local")},
		{"http://.local/a.module", fmt.Sprintf(plainHTTP, ".local")},
		{"http://evil.local.example.org/a.module", fmt.Sprintf(plainHTTP, "evil.local.example.org")},
		{"ftp://example.org/a.module", fmt.Sprintf(onlyHTTPS, "ftp")},
		{"file:///etc/passwd", fmt.Sprintf(onlyHTTPS, "file")},
		{"FILE:///etc/passwd", fmt.Sprintf(onlyHTTPS, "file")},
		{"javascript:alert(1)", fmt.Sprintf(onlyHTTPS, "javascript")},
	} {
		_, err := CheckSourceURL(tc.url)
		if err == nil {
			t.Errorf("%s accepted", tc.url)
			continue
		}
		if err.Error() != tc.msg {
			t.Errorf("%s: got %q, want %q", tc.url, err, tc.msg)
		}
	}
	for _, bad := range []string{"not a url", "example.org/a.module", "", "https://", "https:///a.module", "%zz",
		"http://10.0.0.1:99999/x", "https://example.org:0/", "https://example.org:65536/", "https://[::1]:123456/"} {
		if _, err := CheckSourceURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
