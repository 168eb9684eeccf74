package legacyxml

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// The entry kinds of a compendium: Fight Club 5e's seven (its schema,
// compendium.xsd) and the original application's player character.
const (
	KindMonster    = "monster"
	KindSpell      = "spell"
	KindItem       = "item"
	KindRace       = "race"
	KindClass      = "class"
	KindFeat       = "feat"
	KindBackground = "background"
	KindPlayer     = "player"
)

// CompendiumKinds lists the entry kinds the formats define, in the order
// the documentation gives them. A compendium may hold others (extensions
// of other tools); they are read like these, and the importer decides.
var CompendiumKinds = []string{KindMonster, KindSpell, KindItem, KindRace, KindClass, KindFeat, KindBackground, KindPlayer}

// IsCompendiumKind reports whether name is one of CompendiumKinds.
func IsCompendiumKind(name string) bool {
	for _, k := range CompendiumKinds {
		if k == name {
			return true
		}
	}
	return false
}

// Entry is one entry of a compendium (or one embedded in a module):
// its kind is its element's name.
type Entry struct {
	Kind    string
	Element *Element
}

// CompendiumReader reads the entries of a <compendium> document one at a
// time, so that a compendium of any size costs the memory of one entry.
type CompendiumReader struct {
	rd      *reader
	root    *Element
	entries int
	done    bool
}

// NewCompendiumReader starts reading a compendium document: it reads up
// to the root element, which must be <compendium>.
func NewCompendiumReader(r io.Reader, file string, lim Limits) (*CompendiumReader, error) {
	rd, err := newReader(r, file, lim)
	if err != nil {
		return nil, err
	}
	root, err := rd.root()
	if err != nil {
		return nil, err
	}
	if root.Name != "compendium" {
		return nil, &Error{File: file, Line: root.Line, Msg: "the root element is <" + root.Name + ">, not <compendium>"}
	}
	return &CompendiumReader{rd: rd, root: root}, nil
}

// Root is the <compendium> element: its attributes (Fight Club's version,
// auto_indent), never its entries.
func (c *CompendiumReader) Root() *Element { return c.root }

// Offset is how many bytes of the document have been read so far, for
// progress.
func (c *CompendiumReader) Offset() int64 { return c.rd.offset() }

// Entries is how many entries have been returned so far.
func (c *CompendiumReader) Entries() int { return c.entries }

// Next returns the next entry, or io.EOF after the last one (the rest of
// the document is read to check it is well formed). Text directly inside
// <compendium> is ignored.
func (c *CompendiumReader) Next() (Entry, error) {
	if c.done {
		return Entry{}, io.EOF
	}
	for {
		tok, err := c.rd.next()
		if err != nil {
			return Entry{}, err
		}
		switch tok.(type) {
		case xml.StartElement:
			el, err := c.rd.readElement()
			if err != nil {
				return Entry{}, err
			}
			c.entries++
			return Entry{Kind: el.Name, Element: el}, nil
		case xml.EndElement:
			c.rd.pop() // </compendium>
			if err := c.rd.finish(); err != nil {
				return Entry{}, err
			}
			c.done = true
			return Entry{}, io.EOF
		}
	}
}

// root reads up to the root element and returns it (open: its children
// are not read).
func (rd *reader) root() (*Element, error) {
	for {
		tok, err := rd.next()
		if err != nil {
			return nil, err
		}
		if _, ok := tok.(xml.StartElement); ok {
			return rd.top(), nil
		}
	}
}

// finish reads what follows the root element: only white space, comments
// and processing instructions may.
func (rd *reader) finish() error {
	_, err := rd.next()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err == nil {
		return rd.fail(rd.line(), "content after the root element")
	}
	return err
}

// ReadDocument reads a whole document into one tree (module.xml,
// campaign.xml, pack.xml, an SVG canvas: documents that are read whole),
// under the whole-document limits (Limits.MaxWholeBytes,
// MaxWholeElements).
func ReadDocument(r io.Reader, file string, lim Limits) (*Element, error) {
	rd, err := newReader(r, file, lim.whole())
	if err != nil {
		return nil, err
	}
	if _, err := rd.root(); err != nil {
		return nil, err
	}
	root, err := rd.readElement()
	if err != nil {
		return nil, err
	}
	if err := rd.finish(); err != nil {
		return nil, err
	}
	return root, nil
}

// Sniff reports whether the start of a file is an XML document and, when
// the start shows it, the name of its root element: what an importer
// needs to tell XML from the other formats it takes. It looks past a byte
// order mark, white space, the XML declaration, comments and processing
// instructions; a DTD ends the look (the reader refuses it later).
func Sniff(head []byte) (isXML bool, root string) {
	s := strings.TrimPrefix(string(head), "\xef\xbb\xbf")
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "<?"):
			end := strings.Index(s, "?>")
			if end < 0 {
				return strings.HasPrefix(s, "<?xml"), ""
			}
			isXML = true
			s = s[end+2:]
		case strings.HasPrefix(s, "<!--"):
			end := strings.Index(s, "-->")
			if end < 0 {
				return true, ""
			}
			isXML = true
			s = s[end+3:]
		case strings.HasPrefix(s, "<!"):
			return true, ""
		case strings.HasPrefix(s, "<"):
			name := s[1:]
			end := strings.IndexAny(name, " \t\r\n/>")
			if end < 0 {
				return isXML, ""
			}
			name = name[:end]
			if !isXMLName(name) {
				return false, ""
			}
			return true, name
		default:
			return isXML, ""
		}
	}
}

// isXMLName is a loose check of an element name: letters, digits, and
// "_-.:", starting with a letter or "_".
func isXMLName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127:
		case i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '.' || r == ':'):
		default:
			return false
		}
	}
	return true
}
