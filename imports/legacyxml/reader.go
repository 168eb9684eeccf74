package legacyxml

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Error is a problem in a legacy XML document: where it is and what it is.
type Error struct {
	File string // the document's name, e.g. "compendium.xml"
	Line int    // 0 when unknown
	Path string // the element path, e.g. "compendium/monster[3]/name"; "" outside every element
	Msg  string
	// TooLarge is set when a limit was passed (the importer answers 413).
	TooLarge bool
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(" line ")
		b.WriteString(strconv.Itoa(e.Line))
	}
	if e.Path != "" {
		b.WriteString(", ")
		b.WriteString(e.Path)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errorf is an error located at an element of a document read by this
// package (for callers that check what they read: an import hook's
// failure, a value they refuse).
func Errorf(file string, el *Element, format string, args ...any) *Error {
	e := &Error{File: file, Msg: fmt.Sprintf(format, args...)}
	if el != nil {
		e.Line, e.Path = el.Line, el.Path()
	}
	return e
}

// errTooBig is what the byte counter returns past MaxBytes.
var errTooBig = errors.New("document too large")

// countingReader counts the bytes read and fails past max.
type countingReader struct {
	r   io.Reader
	n   int64
	max int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n > c.max {
		return 0, errTooBig
	}
	// Read one byte past the limit at most, to tell "exactly max" from more.
	if rest := c.max + 1 - c.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n, errTooBig
	}
	return n, err
}

// frame is an open element: its name, its index among same-named
// siblings, and how many children of each name it has had so far.
type frame struct {
	el       *Element
	children []childCount
}

type childCount struct {
	name string
	n    int
}

// reader is a bounded token reader: it refuses DTDs and XInclude, checks
// nesting (RawToken does not), and enforces the Limits.
type reader struct {
	dec      *xml.Decoder
	src      *countingReader
	file     string
	lim      Limits
	stack    []frame
	elements int
	rootSeen bool
	rootDone bool
	// tokenLine is the line where the token being read starts.
	tokenLine int
}

func newReader(r io.Reader, file string, lim Limits) (*reader, error) {
	lim = lim.WithDefaults()
	src := &countingReader{r: r, max: lim.MaxBytes}
	br := bufio.NewReaderSize(src, 64<<10)
	rd := &reader{src: src, file: file, lim: lim}
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, []byte("\xef\xbb\xbf")):
		br.Discard(3) // a UTF-8 byte order mark: encoding/xml would read it as text
	case bytes.HasPrefix(head, []byte("\xfe\xff")), bytes.HasPrefix(head, []byte("\xff\xfe")):
		return nil, rd.fail(0, "the document is encoded in UTF-16; save it as UTF-8")
	}
	rd.dec = xml.NewDecoder(br)
	rd.dec.Strict = true
	// The named entities of HTML (&nbsp;, &mdash;...) that hand-written
	// compendiums use: a fixed table of characters, never read from the
	// document, so accepting them expands nothing the document declares.
	rd.dec.Entity = xml.HTMLEntity
	rd.dec.CharsetReader = charsetReader
	return rd, nil
}

// fail makes an error located at the innermost open element.
func (rd *reader) fail(line int, format string, args ...any) *Error {
	e := &Error{File: rd.file, Line: line, Msg: fmt.Sprintf(format, args...)}
	if n := len(rd.stack); n > 0 {
		e.Path = rd.stack[n-1].el.Path()
	}
	return e
}

func (rd *reader) tooLarge(line int, format string, args ...any) *Error {
	e := rd.fail(line, format, args...)
	e.TooLarge = true
	return e
}

func (rd *reader) line() int {
	line, _ := rd.dec.InputPos()
	return line
}

// offset is how many bytes of the document have been read.
func (rd *reader) offset() int64 { return rd.src.n }

// next returns the next start element, end element or text, skipping the
// XML declaration, comments and processing instructions. Start elements
// are pushed (the new Element is top()), end elements popped after being
// returned. At the end of the document it returns io.EOF.
func (rd *reader) next() (xml.Token, error) {
	for {
		// Where the token starts: where the previous one ended.
		rd.tokenLine = rd.line()
		tok, err := rd.dec.RawToken()
		if err != nil {
			return nil, rd.wrap(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := rd.push(t); err != nil {
				return nil, err
			}
			return t, nil
		case xml.EndElement:
			n := len(rd.stack)
			name := qualified(t.Name)
			if n == 0 {
				return nil, rd.fail(rd.tokenLine, "unexpected end tag </%s>", name)
			}
			if open := rd.stack[n-1].el.Name; open != name {
				return nil, rd.fail(rd.tokenLine, "element <%s> is closed by </%s>", open, name)
			}
			return t, nil
		case xml.CharData:
			if len(t) > rd.lim.MaxText {
				return nil, rd.tooLarge(rd.tokenLine, "a text is %d bytes long; at most %d are accepted", len(t), rd.lim.MaxText)
			}
			if len(rd.stack) == 0 {
				if len(bytes.TrimSpace(t)) > 0 {
					return nil, rd.fail(rd.tokenLine, "text outside the root element")
				}
				continue
			}
			return t, nil
		case xml.Directive:
			return nil, rd.fail(rd.tokenLine, "a DTD (<!%s>) is not accepted: entities and external references are never expanded, and legacy documents need none", directiveWord(t))
		case xml.ProcInst, xml.Comment:
			continue // the declaration (its encoding is handled by the decoder), comments, stylesheets: never followed
		}
	}
}

// pop closes the innermost element after its end tag was returned.
func (rd *reader) pop() *Element {
	n := len(rd.stack)
	el := rd.stack[n-1].el
	rd.stack = rd.stack[:n-1]
	if n == 1 {
		rd.rootDone = true
	}
	return el
}

// top is the innermost open element.
func (rd *reader) top() *Element { return rd.stack[len(rd.stack)-1].el }

func (rd *reader) push(t xml.StartElement) error {
	line := rd.tokenLine
	name := qualified(t.Name)
	if rd.rootDone {
		return rd.fail(line, "a second root element <%s> after the first one ended", name)
	}
	el := &Element{Name: name, Line: line, Index: 1}
	if n := len(rd.stack); n > 0 {
		parent := &rd.stack[n-1]
		el.parent = parent.el
		el.Index = parent.count(name)
	}
	// Errors about the element itself are located at it.
	at := func(format string, args ...any) error {
		e := Errorf(rd.file, el, format, args...)
		e.TooLarge = true
		return e
	}
	rd.elements++
	if rd.elements > rd.lim.MaxElements {
		return at("the document has more than %d elements", rd.lim.MaxElements)
	}
	if len(rd.stack) >= rd.lim.MaxDepth {
		return at("elements are nested deeper than %d levels", rd.lim.MaxDepth)
	}
	if t.Name.Space != "" && t.Name.Local == "include" {
		e := Errorf(rd.file, el, "<%s> includes another file (XInclude); includes are never followed: import the compendium built into one file", name)
		return e
	}
	if len(t.Attr) > rd.lim.MaxAttrs {
		return at("element <%s> has %d attributes; at most %d are accepted", name, len(t.Attr), rd.lim.MaxAttrs)
	}
	for _, a := range t.Attr {
		if len(a.Value) > rd.lim.MaxText {
			return at("attribute %s of <%s> is %d bytes long; at most %d are accepted", qualified(a.Name), name, len(a.Value), rd.lim.MaxText)
		}
		el.Attrs = append(el.Attrs, Attr{Name: qualified(a.Name), Value: a.Value})
	}
	rd.rootSeen = true
	rd.stack = append(rd.stack, frame{el: el})
	return nil
}

// count records one more child named name and returns its index among
// its same-named siblings (1-based).
func (f *frame) count(name string) int {
	for i := range f.children {
		if f.children[i].name == name {
			f.children[i].n++
			return f.children[i].n
		}
	}
	f.children = append(f.children, childCount{name: name, n: 1})
	return 1
}

// wrap turns a decoder error into a located *Error.
func (rd *reader) wrap(err error) error {
	if errors.Is(err, io.EOF) {
		if len(rd.stack) > 0 {
			return rd.fail(rd.line(), "the document ends inside <%s> (truncated?)", rd.top().Name)
		}
		if !rd.rootSeen {
			return rd.fail(0, "the document has no root element")
		}
		return io.EOF
	}
	if errors.Is(err, errTooBig) {
		return rd.tooLarge(rd.line(), "the document is larger than %d bytes", rd.lim.MaxBytes)
	}
	var syn *xml.SyntaxError
	if errors.As(err, &syn) {
		return rd.fail(syn.Line, "malformed XML: %s", strings.TrimPrefix(syn.Msg, "XML syntax error: "))
	}
	var enc *unsupportedEncoding
	if errors.As(err, &enc) {
		return rd.fail(rd.line(), "%s", enc.Error())
	}
	return rd.fail(rd.line(), "cannot read: %v", err)
}

// qualified is a name as written: prefix:local.
func qualified(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// directiveWord is the first word of a directive (DOCTYPE, ENTITY...).
func directiveWord(d xml.Directive) string {
	s := strings.TrimSpace(string(d))
	if i := strings.IndexAny(s, " \t\r\n["); i >= 0 {
		s = s[:i]
	}
	if len(s) > 20 {
		s = s[:20]
	}
	return s
}

// readElement reads the element just pushed (top) to its end: its text
// and children. The element is popped and returned.
func (rd *reader) readElement() (*Element, error) {
	base := len(rd.stack)
	// One text builder per open level from base down.
	builders := []*strings.Builder{{}}
	for {
		tok, err := rd.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, rd.fail(rd.line(), "the document ends inside <%s> (truncated?)", rd.top().Name)
			}
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			builders = append(builders, &strings.Builder{})
		case xml.CharData:
			b := builders[len(builders)-1]
			if b.Len()+len(t) > rd.lim.MaxText {
				return nil, rd.tooLarge(rd.line(), "a text is longer than %d bytes", rd.lim.MaxText)
			}
			b.Write(t)
		case xml.EndElement:
			b := builders[len(builders)-1]
			builders = builders[:len(builders)-1]
			depth := len(rd.stack)
			el := rd.pop()
			el.Text = b.String()
			if depth == base {
				return el, nil
			}
			parent := rd.top()
			parent.Children = append(parent.Children, el)
		}
	}
}
