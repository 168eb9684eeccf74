package legacyxml

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// readAll reads a compendium whole with lim and returns its entries or
// the first error.
func readAll(doc string, lim Limits) ([]Entry, error) {
	cr, err := NewCompendiumReader(strings.NewReader(doc), "test.xml", lim)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for {
		e, err := cr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, e)
	}
}

// wantError checks a located error: its message parts, and TooLarge.
func wantError(t *testing.T, err error, tooLarge bool, parts ...string) *Error {
	t.Helper()
	var xe *Error
	if !errors.As(err, &xe) {
		t.Fatalf("want a *legacyxml.Error, got %T: %v", err, err)
	}
	if xe.TooLarge != tooLarge {
		t.Errorf("TooLarge = %v, want %v (%v)", xe.TooLarge, tooLarge, err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err.Error(), p)
		}
	}
	return xe
}

func TestDTDIsRefusedNeverExpanded(t *testing.T) {
	// A billion laughs: expanding it would take gigabytes.
	laughs := `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<compendium><monster><name>&lol9;</name></monster></compendium>`
	start := time.Now()
	_, err := readAll(laughs, Limits{})
	wantError(t, err, false, "test.xml line 2", "DTD", "DOCTYPE", "never expanded")
	if time.Since(start) > time.Second {
		t.Errorf("refusing took %v", time.Since(start))
	}
	// An external entity (a file of the server) is refused the same way.
	_, err = readAll(`<!DOCTYPE c SYSTEM "file:///etc/passwd"><compendium/>`, Limits{})
	wantError(t, err, false, "DTD")
	_, err = ReadDocument(strings.NewReader(`<module><!ENTITY x "y"></module>`), "module.xml", Limits{})
	wantError(t, err, false, "module.xml line 1, module", "DTD (<!ENTITY>)")
	// An entity no DTD declares is malformed, and says where.
	_, err = readAll("<compendium>\n<monster>\n<name>&xxe;</name></monster></compendium>", Limits{})
	wantError(t, err, false, "line 3", "compendium/monster/name", "malformed XML", "&xxe;")
}

func TestXIncludeIsRefused(t *testing.T) {
	doc := `<collection xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="/etc/passwd"/></collection>`
	_, err := ReadDocument(strings.NewReader(doc), "c.xml", Limits{})
	wantError(t, err, false, "xi:include", "never followed")
}

func TestLimits(t *testing.T) {
	big := "<compendium><monster><name>" + strings.Repeat("a", 2000) + "</name></monster></compendium>"
	_, err := readAll(big, Limits{MaxBytes: 1000})
	wantError(t, err, true, "larger than 1000 bytes")
	// Exactly at the limit is fine.
	if _, err := readAll(big, Limits{MaxBytes: int64(len(big))}); err != nil {
		t.Errorf("a document of exactly MaxBytes: %v", err)
	}

	many := "<compendium>" + strings.Repeat("<spell><name>x</name></spell>", 60) + "</compendium>"
	_, err = readAll(many, Limits{MaxElements: 100})
	wantError(t, err, true, "more than 100 elements", "compendium/spell[50]/name")
	if _, err := readAll(many, Limits{MaxElements: 121}); err != nil {
		t.Errorf("121 elements under a limit of 121: %v", err)
	}

	deep := "<compendium>" + strings.Repeat("<a>", 70) + strings.Repeat("</a>", 70) + "</compendium>"
	_, err = readAll(deep, Limits{})
	wantError(t, err, true, "nested deeper than 64")

	_, err = readAll(big, Limits{MaxText: 1000})
	wantError(t, err, true, "compendium/monster/name", "at most 1000")
	// A text split into pieces (CDATA, entities) is counted whole.
	pieces := "<compendium><monster><name>" + strings.Repeat("<![CDATA[aaaaaaaaaa]]>&amp;", 200) + "</name></monster></compendium>"
	_, err = readAll(pieces, Limits{MaxText: 1000})
	wantError(t, err, true, "longer than 1000 bytes")

	attrs := "<compendium><monster " + strings.Repeat(`a="1" `, 3) + "/></compendium>"
	attrs = strings.Replace(attrs, `a="1" a="1" a="1"`, `a="1" b="1" c="1"`, 1)
	_, err = readAll(attrs, Limits{MaxAttrs: 2})
	wantError(t, err, true, "3 attributes")
	longAttr := `<compendium><monster id="` + strings.Repeat("x", 50) + `"/></compendium>`
	_, err = readAll(longAttr, Limits{MaxText: 20})
	wantError(t, err, true, "attribute id of <monster>")
}

func TestMalformedDocumentsSayWhere(t *testing.T) {
	cases := []struct {
		doc   string
		parts []string
	}{
		{"<compendium>\n<monster>\n<name>Goblin</nam>\n</monster></compendium>", []string{"line 3", "compendium/monster/name", "<name> is closed by </nam>"}},
		{"<compendium>\n<monster>\n<name>Goblin</name>", []string{"ends inside <monster>", "truncated"}},
		{"", []string{"no root element"}},
		{"   \n  ", []string{"no root element"}},
		{"<compendium></compendium><compendium/>", []string{"second root element"}},
		{"<compendium/>trailing", []string{"text outside the root element"}},
		{"<compendium><monster a=1/></compendium>", []string{"malformed XML", "line 1"}},
		{"<compendium>\n\n<spell><name>a < b</name></spell></compendium>", []string{"line 3", "malformed XML"}},
		{"<monster><name>x</name></monster>", []string{"root element is <monster>, not <compendium>"}},
		{"\xfe\xff\x00<\x00c", []string{"UTF-16"}},
		{`<?xml version="1.0" encoding="EBCDIC"?><compendium/>`, []string{"encoding \"EBCDIC\"", "UTF-8"}},
	}
	for _, c := range cases {
		_, err := readAll(c.doc, Limits{})
		wantError(t, err, false, c.parts...)
	}
}

func TestEncodingsAndEntities(t *testing.T) {
	// A byte order mark, HTML's named entities and character references.
	doc := "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<compendium><spell><name>Fog&nbsp;Cloud &amp; &#8212; &mdash;</name></spell></compendium>"
	entries, err := readAll(doc, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := entries[0].Element.ChildText("name"); got != "Fog\u00a0Cloud & — —" {
		t.Errorf("name = %q", got)
	}
	// Latin-1 and Windows-1252, as old Windows tools wrote them.
	latin := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><compendium><spell><name>Caf\xe9</name></spell></compendium>"
	if entries, err = readAll(latin, Limits{}); err != nil || entries[0].Element.ChildText("name") != "Café" {
		t.Errorf("latin-1: %v %v", entries, err)
	}
	cp := "<?xml version=\"1.0\" encoding=\"windows-1252\"?><compendium><spell><name>\x93Quoted\x94 \x80</name></spell></compendium>"
	if entries, err = readAll(cp, Limits{}); err != nil || entries[0].Element.ChildText("name") != "“Quoted” €" {
		t.Errorf("windows-1252: %v %v", entries, err)
	}
	// Invalid UTF-8 in a UTF-8 document is malformed.
	_, err = readAll("<compendium><spell><name>\xff\xfe</name></spell></compendium>", Limits{})
	wantError(t, err, false, "malformed XML")
}

func TestSniff(t *testing.T) {
	cases := []struct {
		head  string
		isXML bool
		root  string
	}{
		{`<?xml version="1.0"?><compendium version="5">`, true, "compendium"},
		{"\xef\xbb\xbf\n  <!-- made by hand -->\n<module id=\"x\">", true, "module"},
		{"<compendium>", true, "compendium"},
		{`<?xml version="1.0"?><!DOCTYPE x>`, true, ""},
		{`<?xml version="1.0"?>` + strings.Repeat(" ", 10), true, ""},
		{`{"format": 0.3}`, false, ""},
		{"PK\x03\x04", false, ""},
		{"<3 hearts", false, ""},
		{"", false, ""},
	}
	for _, c := range cases {
		isXML, root := Sniff([]byte(c.head))
		if isXML != c.isXML || root != c.root {
			t.Errorf("Sniff(%q) = %v %q, want %v %q", c.head, isXML, root, c.isXML, c.root)
		}
	}
}

// A document read whole into one tree (module.xml, campaign.xml, pack.xml,
// a canvas) is held to the whole-document limits, far below those of a
// compendium read entry by entry: a tree costs about 170 bytes an element.
func TestADocumentReadWholeHasItsOwnLimits(t *testing.T) {
	doc := "<module>" + strings.Repeat("<page><name>x</name></page>", 20) + "</module>"
	lim := Limits{MaxWholeElements: 30, MaxWholeBytes: 1 << 20}
	_, err := ReadDocument(strings.NewReader(doc), "module.xml", lim)
	var xe *Error
	if !errors.As(err, &xe) || !xe.TooLarge || !strings.Contains(xe.Msg, "more than 30 elements") {
		t.Fatalf("a module of 41 elements with a whole-document limit of 30: %v", err)
	}
	comp := "<compendium>" + strings.Repeat("<spell><name>x</name></spell>", 20) + "</compendium>"
	cr, err := NewCompendiumReader(strings.NewReader(comp), "c.xml", lim)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; ; n++ {
		if _, err := cr.Next(); err != nil {
			if !errors.Is(err, io.EOF) || n != 20 {
				t.Fatalf("a compendium of the same size, read entry by entry: %d entries, %v", n, err)
			}
			break
		}
	}
	if _, err := ReadDocument(strings.NewReader(doc), "module.xml", Limits{MaxWholeBytes: 100}); err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Fatalf("the whole-document byte limit: %v", err)
	}
}
