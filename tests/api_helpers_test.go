package tests

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// apiClient talks to a running server as a plain HTTP client: no
// transparent gzip, no redirects followed, so every header is visible.
type apiClient struct {
	t    *testing.T
	base string
	http *http.Client
}

func newAPIClient(t *testing.T, base string) *apiClient {
	return &apiClient{t: t, base: base, http: &http.Client{
		Timeout:       30 * time.Second,
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// apiReply is one answer, read whole.
type apiReply struct {
	status int
	header http.Header
	body   []byte
}

// do sends method path with an optional body and header pairs.
func (c *apiClient) do(method, path, body string, headers ...string) apiReply {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	// Every answer is also checked against the description the server serves
	// (openapi_validate_test.go).
	if d := servedDescription(c.t, c.http, c.base); d != nil {
		if err := d.checkResponse(req, resp.StatusCode, resp.Header, data); err != nil {
			c.t.Errorf("%s %s answered %d, which contradicts the served description: %v\n  body: %.400s", method, path, resp.StatusCode, err, data)
		}
	}
	return apiReply{status: resp.StatusCode, header: resp.Header, body: data}
}

// get is do("GET") that requires 200 and decodes JSON into v.
func (c *apiClient) get(path string, v any) apiReply {
	c.t.Helper()
	r := c.do("GET", path, "")
	if r.status != 200 {
		c.t.Fatalf("GET %s: %d %.300s", path, r.status, r.body)
	}
	if v != nil {
		if err := json.Unmarshal(r.body, v); err != nil {
			c.t.Fatalf("GET %s: not JSON: %v %.300s", path, err, r.body)
		}
	}
	return r
}

func (r apiReply) object(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("not a JSON object (%d): %.300s", r.status, r.body)
	}
	return v
}

// wantAPIError checks a status and a one-key {"message": ...} body whose
// text contains message and no Go internals.
func wantAPIError(t *testing.T, r apiReply, status int, message string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %.300s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("error Content-Type %q", ct)
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil || len(body) != 1 {
		t.Fatalf("error body must be {\"message\": ...}: %s", r.body)
	}
	got, ok := body["message"].(string)
	if !ok || !strings.Contains(got, message) {
		t.Fatalf("message %q does not contain %q", got, message)
	}
	for _, leak := range []string{"json:", "goroutine", "runtime.", "*core.", "sql:"} {
		if strings.Contains(got, leak) {
			t.Fatalf("message leaks internals (%s): %q", leak, got)
		}
	}
}

// rawRequest sends a request line exactly as written (no cleaning or
// escaping by a client library) and returns the status and whole answer.
func rawRequest(t *testing.T, base, path string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n", path)
	data, _ := io.ReadAll(conn)
	var proto string
	var status int
	if _, err := fmt.Sscan(string(data), &proto, &status); err != nil {
		t.Fatalf("%s: no status line in %q", path, data)
	}
	return status, string(data)
}

// apiEntity is the part of an entity the black-box tests look at.
type apiEntity struct {
	ID   string         `json:"id"`
	Kind string         `json:"kind"`
	Name string         `json:"name"`
	Slug string         `json:"slug"`
	Data map[string]any `json:"data"`
}
