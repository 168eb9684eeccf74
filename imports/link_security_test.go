package imports

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/download"
)

// Hostile import links (contract 4.10): every refusal carries one of the
// table's messages, and what is accepted is exactly one https URL.

func TestLinkAttacksGetTheTableMessages(t *testing.T) {
	for _, tc := range []struct{ link, msg string }{
		// Double encoding: once decoded the value is still encoded, so it
		// has no scheme and is not an https URL.
		{"vttapp://import?url=https%253A%252F%252Fexample.org%252Fa.module", MsgHTTPSOnly},
		// '+' anywhere in the value is form encoding (rule 5), even next to
		// correctly encoded text.
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fa+b.module", MsgNotEncoded},
		{"vttapp://import?manifest=+https%3A%2F%2Fexample.org%2Fm.json", MsgNotEncoded},
		// Encoded whitespace and control characters inside the inner URL.
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fa%09b.module", MsgNotEncoded},
		{"vttapp://import?url=https%3A%2F%2Fexample.org%2Fa%0Ab.module", MsgNotEncoded},
		{"vttapp://import?url=https%3A%2F%2Fexample.org%00.evil%2Fa.module", MsgHTTPSOnly},
		// Scheme tricks inside the inner URL.
		{"vttapp://import?url=http%3A%2F%2F127.0.0.1%2Fa.module", MsgHTTPSOnly},
		{"vttapp://import?url=HTTP%3A%2F%2Flocalhost%2Fa.module", MsgHTTPSOnly},
		{"vttapp://import?url=%2F%2Fexample.org%2Fa.module", MsgHTTPSOnly},
		{"vttapp://import?url=https%3Aexample.org", MsgHTTPSOnly},
		{"vttapp://import?url=https%3A%2F%2F%2Fa.module", MsgHTTPSOnly},
		{"vttapp://import?url=javascript%3Aalert(1)", MsgHTTPSOnly},
		{"vttapp://import?manifest", MsgHTTPSOnly},
		// Both sources, in either order, even when one is empty.
		{"vttapp://import?url=&manifest=https%3A%2F%2Fa.org%2Fm.json", MsgBothSources},
		{"vttapp://import?manifest=https%3A%2F%2Fa.org%2Fm.json&url", MsgBothSources},
		// Parameter names are exact: these are "other parameters" (rule 6).
		{"vttapp://import?URL=https%3A%2F%2Fa.org%2Fx.module", MsgNoSource},
		{"vttapp://import?url%3Dhttps%3A%2F%2Fa.org", MsgNoSource},
		{"vttapp://import#url=https%3A%2F%2Fa.org%2Fx.module", MsgNoSource},
		// Actions other than import.
		{"vttapp://imports?url=https%3A%2F%2Fa.org%2Fx.module", MsgUnknownAction},
		{"vttapp://import.evil?url=https%3A%2F%2Fa.org%2Fx.module", MsgUnknownAction},
		{"vttapp://../import?url=https%3A%2F%2Fa.org%2Fx.module", MsgUnknownAction},
		{"vttapp:///import?url=https%3A%2F%2Fa.org%2Fx.module", MsgUnknownAction},
	} {
		_, err := ParseLink(tc.link)
		if err == nil {
			t.Errorf("%q accepted, want %q", tc.link, tc.msg)
			continue
		}
		if core.KindOf(err) != core.KindInvalid || err.Error() != tc.msg {
			t.Errorf("%q: got %q, want %q", tc.link, err, tc.msg)
		}
	}
}

func TestLinkRawInnerURLIsCutAtItsFirstAmpersand(t *testing.T) {
	// Rule 4: the rest of a raw inner URL becomes outer parameters; a
	// second url= among them does not win over the first.
	got, err := ParseLink("vttapp://import?url=https://example.org/get?a=1&url=https%3A%2F%2Fevil.example%2Fx&b=2")
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != "https://example.org/get?a=1" || got.Manifest != "" {
		t.Errorf("got %+v", got)
	}
	// A raw '&' followed by manifest= makes two sources: refused, no choice made.
	if _, err := ParseLink("vttapp://import?url=https://example.org/get?a=1&manifest=https://x.org/m.json"); err == nil || err.Error() != MsgBothSources {
		t.Errorf("raw & then manifest=: %v", err)
	}
}

func TestImportRequestHostileBodies(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	for name, body := range map[string]string{
		"deeply nested array":       deep,
		"deeply nested in a field":  `{"url":` + strings.Repeat(`{"a":`, 20000) + `1` + strings.Repeat(`}`, 20000) + `}`,
		"huge number":               `{"url": 1` + strings.Repeat("0", 5000) + `}`,
		"url not a string":          `{"url": ["https://example.org/a.module"]}`,
		"invalid UTF-8 in url":      "{\"url\": \"https://example.org/\xff\xfe.module\"}",
		"not an object":             `"https://example.org/a.module"`,
		"trailing garbage":          `{"url": "https://example.org/a.module"} {"url": "x"}`,
		"body past the limit":       `{"url": "https://example.org/` + strings.Repeat("a", MaxRequestBytes) + `"}`,
		"duplicate keys, last http": `{"url": "https://example.org/a.module", "url": "http://example.org/a.module"}`,
	} {
		req := httptest.NewRequest("POST", "/api/import", strings.NewReader(body))
		_, err := ParseImportRequest(req)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if core.KindOf(err) != core.KindInvalid || err.Error() == "" {
			t.Errorf("%s: %v (%s)", name, err, core.KindOf(err))
		}
	}
}

func TestImportRequestInvalidUTF8InQueryIsRefused(t *testing.T) {
	req := httptest.NewRequest("POST", "/api/import?url="+url.QueryEscape("https://example.org/\xff.module"), nil)
	src, err := ParseImportRequest(req)
	if err != nil {
		return // refused: fine
	}
	// Accepted: the URL must still be https and requestable as judged.
	if _, err := download.CheckSourceURL(src.URL); err != nil {
		t.Errorf("accepted %q that the policy refuses: %v", src.URL, err)
	}
}
