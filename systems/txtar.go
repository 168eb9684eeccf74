package systems

import (
	"bytes"
	"strings"
)

// caseFile is a golden case in the txtar style: an optional comment, then
// sections that each start with a line "-- name --".
type caseFile struct {
	comment  []byte
	sections []section
}

type section struct {
	name string
	data []byte
}

func parseCase(data []byte) *caseFile {
	cf := &caseFile{}
	var cur *section
	for len(data) > 0 {
		line := data
		rest := []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, rest = data[:i+1], data[i+1:]
		}
		data = rest
		if name, ok := sectionName(line); ok {
			cf.sections = append(cf.sections, section{name: name})
			cur = &cf.sections[len(cf.sections)-1]
			continue
		}
		if cur == nil {
			cf.comment = append(cf.comment, line...)
		} else {
			cur.data = append(cur.data, line...)
		}
	}
	return cf
}

func sectionName(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}

func (cf *caseFile) get(name string) ([]byte, bool) {
	for _, s := range cf.sections {
		if s.name == name {
			return s.data, true
		}
	}
	return nil, false
}

func (cf *caseFile) set(name string, data []byte) {
	for i := range cf.sections {
		if cf.sections[i].name == name {
			cf.sections[i].data = data
			return
		}
	}
	cf.sections = append(cf.sections, section{name: name, data: data})
}

func (cf *caseFile) format() []byte {
	var b bytes.Buffer
	b.Write(cf.comment)
	for _, s := range cf.sections {
		b.WriteString("-- " + s.name + " --\n")
		b.Write(s.data)
		if len(s.data) > 0 && s.data[len(s.data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
