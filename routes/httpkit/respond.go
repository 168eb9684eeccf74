package httpkit

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
)

// PathParam returns a path parameter percent-decoded. chi routes on the raw
// path when the request's escapes differ from Go's own (%2F for a slash,
// %41 for a plain letter) and then hands the parameter over still escaped;
// an id must mean the same thing however the client escaped it.
func PathParam(r *http.Request, name string) string {
	v := chi.URLParam(r, name)
	if r.URL.RawPath == "" {
		return v
	}
	if decoded, err := url.PathUnescape(v); err == nil {
		return decoded
	}
	return v
}

// ReadBody reads a JSON request body whole and checks its bounds before
// anything decodes it (core.CheckJSON: values, nesting, members), so that
// a body costs a few times its size at most. The body limit is applied by
// the middleware; an oversized body comes back as a 413 error.
func ReadBody(r *http.Request) ([]byte, error) {
	data, err := readAll(r.Body, r.ContentLength)
	if err != nil {
		return nil, BodyError(err)
	}
	if err := core.CheckUTF8("body", data); err != nil {
		return nil, err
	}
	if err := core.CheckJSON(data); err != nil {
		return nil, err
	}
	return data, nil
}

// readAll is io.ReadAll, except when a read fails: io.ReadAll then still
// joins what it read into one new slice, which for a body cut for its pace
// (bodytime.go) is one more copy of up to 8 MiB per stalled upload, made
// at the moment it is cut. Here the chunks read so far are dropped. A body
// that says its length (size, at most the body limit, which the reader
// enforces) is read into one slice of that length: no chunks to join, so
// it is held once, not twice.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size > 0 && size <= maxExactBody {
		buf := make([]byte, size)
		n, err := io.ReadFull(r, buf)
		if err == io.ErrUnexpectedEOF {
			return buf[:n], nil // shorter than it said: what came
		}
		if err != nil {
			return nil, err
		}
		return buf, nil // the server reads no further than the length said
	}
	var chunks [][]byte
	size, total := 512, 0
	for {
		chunk := make([]byte, size)
		n, err := io.ReadFull(r, chunk)
		chunks, total = append(chunks, chunk[:n]), total+n
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			if len(chunks) == 1 {
				return chunks[0], nil
			}
			out := make([]byte, 0, total)
			for _, c := range chunks {
				out = append(out, c...)
			}
			return out, nil
		case err != nil:
			return nil, err
		}
		size = min(2*size, 1<<20)
	}
}

// maxExactBody bounds the length a body's Content-Length may make readAll
// allocate at once (limitBodies has refused one over the body limit; past
// this a larger limit reads in chunks).
const maxExactBody = 64 << 20

// DecodeBody reads a JSON object body into v (a pointer to a struct). The
// error says what is wrong in words: empty, malformed at byte N, a field
// of the wrong type.
func DecodeBody(r *http.Request, v any) error {
	data, err := ReadBody(r)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return core.Invalidf("empty body: expected a JSON object")
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return core.Invalidf("expected a JSON object, got null")
	}
	if err := json.Unmarshal(data, v); err != nil {
		return BodyError(err)
	}
	return nil
}

// DecodePatch reads a JSON merge patch: the body must be a JSON object.
func DecodePatch(r *http.Request) (core.Object, error) {
	var patch core.Object
	if err := DecodeBody(r, &patch); err != nil {
		return nil, err
	}
	return patch, nil
}

// WriteJSON answers v as JSON with status.
func WriteJSON(w http.ResponseWriter, r *http.Request, log *slog.Logger, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		WriteError(w, r, log, core.Internal(err))
		return
	}
	WriteRawJSON(w, status, body)
}

// WriteRawJSON answers already encoded JSON.
func WriteRawJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// DecodeStrict reads a JSON object body into v, refusing unknown keys: a
// misspelt key in a console request is a mistake to report, not to ignore.
func DecodeStrict(r *http.Request, v any) error {
	data, err := ReadBody(r)
	if err != nil {
		return err
	}
	return DecodeStrictBytes(data, v)
}

func DecodeStrictBytes(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		return core.Invalidf("empty body: expected a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return BodyError(err)
	}
	if dec.More() {
		return core.Invalidf("expected one JSON object, found more after it")
	}
	return nil
}

// DecodeOptional is DecodeStrict for a body that may be empty.
func DecodeOptional(r *http.Request, v any) error {
	data, err := ReadBody(r)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	return DecodeStrictBytes(data, v)
}

// PagePolicy is the Content-Security-Policy of a page: no script at all,
// images and fonts of this server, the theme's inline style.
const PagePolicy = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; font-src 'self' data:; base-uri 'none'; form-action 'none'"
