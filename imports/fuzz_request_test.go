package imports

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/download"
)

// FuzzParseImportRequest: any query and body give either an Invalid error
// or exactly one source that passes the URL policy.
func FuzzParseImportRequest(f *testing.F) {
	f.Add("url=https%3A%2F%2Fexample.org%2Fa.module", "")
	f.Add("", `{"manifest":"https://example.org/m.json"}`)
	f.Add("url=http://127.0.0.1/a&manifest=x", "")
	f.Add("url=a+b", `{"url":"https://x.org/"}`)
	f.Add("", "{\"url\":\"https://x.org/\xff\"}")
	f.Add("%zz", `[`)
	f.Add("", `{"url":null,"manifest":"https://x.org/m.json"}`)
	f.Fuzz(func(t *testing.T, query, body string) {
		if strings.ContainsAny(query, " #\r\n\t") {
			return
		}
		req := httptest.NewRequest("POST", "/api/import", strings.NewReader(body))
		req.URL.RawQuery = query
		src, err := ParseImportRequest(req)
		if err != nil {
			if core.KindOf(err) != core.KindInvalid {
				t.Fatalf("error of kind %s: %v", core.KindOf(err), err)
			}
			return
		}
		if (src.Manifest == "") == (src.URL == "") {
			t.Fatalf("not exactly one source: %+v", src)
		}
		if _, err := download.CheckSourceURL(src.Target()); err != nil {
			t.Fatalf("accepted %q that the policy refuses: %v", src.Target(), err)
		}
	})
}
