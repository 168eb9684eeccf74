package joinlink

import (
	"encoding/base64"
	"image/png"
	"strings"
	"testing"
)

// A link's QR code is a PNG data URL, drawn once per link; a link too long
// for a QR code has none.
func TestQRDataURL(t *testing.T) {
	link := "http://192.168.1.20:8080/client/?key=abc"
	u := string(QRDataURL(link))
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(u, prefix) {
		t.Fatalf("QRDataURL = %.40q", u)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(u, prefix))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(strings.NewReader(string(raw)))
	if err != nil || img.Bounds().Dx() < 100 {
		t.Fatalf("the QR code is not a readable picture: %v", err)
	}
	if again := string(QRDataURL(link)); again != u {
		t.Error("the same link drew another code")
	}
	if got := QRDataURL(strings.Repeat("x", 5000)); got != "" {
		t.Errorf("a 5,000-byte link has a code (%d bytes)", len(got))
	}
}

// The LAN addresses are IPv4, never loopback.
func TestLANAddresses(t *testing.T) {
	for _, a := range LANAddresses() {
		if strings.HasPrefix(a, "127.") || strings.Contains(a, ":") {
			t.Errorf("LANAddresses lists %q", a)
		}
	}
}
