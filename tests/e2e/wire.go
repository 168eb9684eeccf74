package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/routes"
)

// wireDescription is a loaded description and its x-events index.
type wireDescription struct {
	doc     *openapi3.T
	events  map[string]string // event name -> component name
	replies map[string]string // request name -> component name of its answer
}

var (
	descMu      sync.Mutex
	descByBase  = map[string]*wireDescription{}
	eventDesc   *wireDescription
	eventDescMu sync.Mutex
)

// loadDescription reads an OpenAPI document and its x-events.
func loadDescription(body []byte) (*wireDescription, error) {
	doc, err := openapi3.NewLoader().LoadFromData(body)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	type entry struct {
		Schema string `json:"schema"`
	}
	var raw struct {
		Events  map[string]entry `json:"x-events"`
		Replies map[string]entry `json:"x-replies"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, err
	}
	d := &wireDescription{doc: doc, events: map[string]string{}, replies: map[string]string{}}
	for name, e := range raw.Events {
		d.events[name] = strings.TrimPrefix(e.Schema, "#/components/schemas/")
	}
	for name, e := range raw.Replies {
		d.replies[name] = strings.TrimPrefix(e.Schema, "#/components/schemas/")
	}
	return d, nil
}

// servedDescription is the description a running server serves at base,
// fetched once.
func servedDescription(t testing.TB, hc *http.Client, base string) *wireDescription {
	descMu.Lock()
	defer descMu.Unlock()
	if d, ok := descByBase[base]; ok {
		return d
	}
	resp, err := hc.Get(base + "/api/openapi.json")
	var d *wireDescription
	if err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			d, err = loadDescription(body)
		}
	}
	if err != nil {
		t.Errorf("loading the served description of %s: %v", base, err)
	}
	descByBase[base] = d // nil: a server that serves none (no system loaded)
	return d
}

// EventDescription is the description of the shipped system, for the
// servers of wsEnv, which run without one: the events do not depend on it.
func EventDescription(t testing.TB) *wireDescription {
	eventDescMu.Lock()
	defer eventDescMu.Unlock()
	if eventDesc == nil {
		body, err := routes.OpenAPIDocument(testkit.DnD5e(t))
		if err == nil {
			eventDesc, err = loadDescription(body)
		}
		if err != nil {
			t.Fatalf("the description does not load: %v", err)
		}
	}
	return eventDesc
}

// servedFolders are the first path segments never taken for an entity
// reference (docs/api.md, Pages and files).
var servedFolders = map[string]bool{"api": true, "client": true, "modules": true, "campaigns": true, "systems": true, "others": true}

// findRoute is the operation of the description that serves method path:
// the path template that matches with the most literal segments, so
// /api/system wins over /{kind}/{slug}.
func (d *wireDescription) findRoute(method, path string) (*routers.Route, map[string]string) {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	var best *routers.Route
	var bestParams map[string]string
	bestLiterals := -1
	for tmpl, item := range d.doc.Paths.Map() {
		tsegs := strings.Split(strings.TrimPrefix(tmpl, "/"), "/")
		if len(tsegs) != len(segs) {
			continue
		}
		if servedFolders[segs[0]] && tsegs[0] != segs[0] {
			continue // nothing under /api or a served folder is an entity page (docs/api.md)
		}
		params, literals, ok := map[string]string{}, 0, true
		for i, ts := range tsegs {
			if strings.HasPrefix(ts, "{") && strings.HasSuffix(ts, "}") {
				if segs[i] == "" {
					ok = false
					break
				}
				params[ts[1:len(ts)-1]] = segs[i]
				continue
			}
			if ts != segs[i] {
				ok = false
				break
			}
			literals++
		}
		op := item.GetOperation(method)
		if !ok || op == nil || literals <= bestLiterals {
			continue
		}
		best = &routers.Route{Spec: d.doc, Path: tmpl, PathItem: item, Method: method, Operation: op}
		bestParams, bestLiterals = params, literals
	}
	return best, bestParams
}

// CheckResponse validates one JSON answer against the description: the
// status must be one the operation describes and the body its schema.
// Answers the description does not cover (no JSON, a path or method it
// does not have, 304, HEAD) are not checked here; the API tests check
// those statuses themselves.
func (d *wireDescription) CheckResponse(req *http.Request, status int, header http.Header, body []byte) error {
	if req.Method == http.MethodHead || req.Method == http.MethodOptions || status == http.StatusNotModified ||
		!strings.HasPrefix(header.Get("Content-Type"), "application/json") {
		return nil
	}
	route, params := d.findRoute(req.Method, req.URL.Path)
	if route == nil {
		return nil
	}
	if header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return err
		}
		if body, err = io.ReadAll(zr); err != nil {
			return err
		}
		header = header.Clone()
		header.Del("Content-Encoding")
	}
	if route.Operation.Responses.Status(status) == nil {
		if status == http.StatusMethodNotAllowed || status == http.StatusRequestTimeout || status == http.StatusServiceUnavailable {
			return nil // the transport's answers (docs/api.md, Errors), on every path
		}
		return fmt.Errorf("status %d is not described for %s %s", status, req.Method, route.Path)
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	return openapi3filter.ValidateResponse(context.Background(), input)
}

// CheckFrame validates one envelope a client received: a broadcast's data
// against its event's schema, an answer (a responseId, or a refused drag's
// block) against its request's under x-replies, an error against the
// error event's. A name the description does not list fails.
func (d *wireDescription) CheckFrame(m WsMsg) error {
	component, ok := d.events[m.Name]
	// An answer has the request's responseId, or none when it is always
	// answered (getAttribute): a name only x-replies lists is an answer.
	if reply, isReply := d.replies[m.Name]; isReply && (len(m.ResponseID) > 0 || !ok) {
		component, ok = reply, true
	}
	if !ok {
		return fmt.Errorf("%q is not in the description's x-events or x-replies", m.Name)
	}
	schema := d.doc.Components.Schemas[component]
	if schema == nil || schema.Value == nil {
		return fmt.Errorf("event %q: no component %s", m.Name, component)
	}
	var data any
	if len(m.Data) > 0 {
		if err := json.Unmarshal(m.Data, &data); err != nil {
			return err
		}
	}
	if err := schema.Value.VisitJSON(data, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors()); err != nil {
		return fmt.Errorf("%s does not match %s: %v", m.Name, component, err)
	}
	return nil
}

// frameChecker collects the mismatches a connection's reader finds; they
// are reported when the test ends (the reader is not the test's goroutine).
type frameChecker struct {
	off  bool
	mu   sync.Mutex
	errs []string
}

func (f *frameChecker) check(d *wireDescription, m WsMsg) {
	if f.off {
		return
	}
	if err := d.CheckFrame(m); err != nil {
		f.mu.Lock()
		f.errs = append(f.errs, fmt.Sprintf("%v\n  frame data: %.400s", err, m.Data))
		f.mu.Unlock()
	}
}

func (f *frameChecker) report(t testing.TB) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range f.errs {
		t.Errorf("a WebSocket frame contradicts the served description: %s", e)
	}
}
