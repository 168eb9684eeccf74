package guard

import "testing"

func TestPublicHostsAllowed(t *testing.T) {
	p := NewPublicHosts([]string{"Table.Lan", "dm-laptop.example:8080"})
	for _, h := range []string{"192.168.1.20:8080", "10.0.0.5", "[fe80::1]:8080", "[::1]:80", "127.0.0.1:8080", "localhost:8080", "LOCALHOST",
		"dm-laptop.local:8080", "dm-laptop.local.", "table.lan", "TABLE.LAN:9000", "dm-laptop.example"} {
		if !p.allowed(h) {
			t.Errorf("%q refused", h)
		}
	}
	for _, h := range []string{"", "evil.example", "evil.example:8080", "localhost.evil.example", "local", "table.lan.evil.example", "192.168.1.20.evil.example"} {
		if p.allowed(h) {
			t.Errorf("%q allowed", h)
		}
	}
}
