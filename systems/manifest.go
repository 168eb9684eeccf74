package systems

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
)

// Manifest is system.json.
type Manifest struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Version       string `json:"version"`
	SystemVersion string `json:"systemVersion,omitempty"`
	Description   string `json:"description,omitempty"`
	Author        string `json:"author,omitempty"`
	Entry         string `json:"entry,omitempty"`
}

const manifestFile = "system.json"

var systemID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// readManifest reads and validates system.json, adding every problem found.
func readManifest(fsys fs.FS, problems *scripting.Problems) *Manifest {
	data, err := fs.ReadFile(fsys, manifestFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			problems.Add(manifestFile, 0, "missing: a system folder needs a system.json with id, name and version")
		} else {
			problems.Add(manifestFile, 0, "cannot read: %v", err)
		}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		line := 1
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax):
			line = lineAt(data, syntax.Offset)
		case errors.As(err, &typ):
			line = lineAt(data, typ.Offset)
		}
		problems.Add(manifestFile, line, "%s", core.JSONErrorText(err))
		return nil
	}
	at := func(key string) int { return keyLine(data, key) }
	if strings.TrimSpace(m.ID) == "" {
		problems.Add(manifestFile, 1, "id is required (a lower-case name such as \"dnd5e\")")
	} else if !systemID.MatchString(m.ID) {
		problems.Add(manifestFile, at("id"), "id %q must be lower-case letters, digits, '-' or '_'", m.ID)
	}
	if strings.TrimSpace(m.Name) == "" {
		problems.Add(manifestFile, 1, "name is required")
	}
	if m.Version == "" {
		problems.Add(manifestFile, 1, "version is required (a semantic version such as \"1.0.0\")")
	} else if !core.IsSemver(m.Version) {
		problems.Add(manifestFile, at("version"), "version %q is not a semantic version MAJOR.MINOR.PATCH", m.Version)
	}
	if m.SystemVersion != "" && !core.IsSemver(m.SystemVersion) {
		problems.Add(manifestFile, at("systemVersion"), "systemVersion %q is not a semantic version MAJOR.MINOR.PATCH", m.SystemVersion)
	}
	if m.Entry == "" {
		m.Entry = "system.lua"
	}
	if !fs.ValidPath(m.Entry) || !strings.HasSuffix(m.Entry, ".lua") {
		problems.Add(manifestFile, at("entry"), "entry %q must be a .lua file inside the system folder", m.Entry)
	}
	return &m
}

// lineAt is the 1-based line of a byte offset.
func lineAt(data []byte, offset int64) int {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// keyLine is the line where "key" first appears, or 1.
func keyLine(data []byte, key string) int {
	i := bytes.Index(data, []byte(fmt.Sprintf("%q", key)))
	if i < 0 {
		return 1
	}
	return lineAt(data, int64(i))
}
