package download

import (
	"mime"
	"path"
	"strings"
)

// parseDisposition reads a Content-Disposition header, keeping only the
// base name of a suggested file name.
func parseDisposition(v string) (string, map[string]string, error) {
	kind, params, err := mime.ParseMediaType(v)
	if err != nil {
		return "", nil, err
	}
	if name := params["filename"]; name != "" {
		params["filename"] = path.Base(strings.ReplaceAll(name, `\`, "/"))
	}
	return kind, params, nil
}
