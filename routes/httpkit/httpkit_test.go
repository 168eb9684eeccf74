package httpkit

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/guard"
)

// Each error kind answers the status the contract gives it (section 7),
// and an internal error never shows its cause.
func TestErrorKindsAnswerTheirStatus(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{core.Invalidf("bad"), 400},
		{core.NotFoundf("gone"), 404},
		{core.Conflictf("taken"), 409},
		{core.TooLargef("big"), 413},
		{core.Forbiddenf("no"), 403},
		{core.RateLimitedf("slow down"), 429},
		{guard.ErrBodyTooSlow, 408},
		{errors.New("disk on fire"), 500},
	} {
		if got := StatusOf(c.err); got != c.want {
			t.Errorf("StatusOf(%v) = %d, want %d", c.err, got, c.want)
		}
	}
	rec := httptest.NewRecorder()
	WriteError(rec, httptest.NewRequest("GET", "/", nil), nil, errors.New("secret path /var/x"))
	var body struct{ Message string }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != 500 || strings.Contains(body.Message, "secret") || body.Message == "" {
		t.Fatalf("internal error answered %d %q (%v)", rec.Code, rec.Body, err)
	}
}

func TestDecodeRefusesWhatIsNotOneObject(t *testing.T) {
	type in struct {
		Name string `json:"name"`
	}
	req := func(body string) *http.Request { return httptest.NewRequest("POST", "/", strings.NewReader(body)) }
	var v in
	for body, want := range map[string]string{
		"":             "empty body",
		"null":         "null",
		`{"name": 3}`:  "name",
		`{"name": "a"`: "",
		"\xff\xfe":     "",
	} {
		err := DecodeBody(req(body), &v)
		if err == nil || StatusOf(err) != 400 || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeBody(%q) = %v, want a 400 naming %q", body, err, want)
		}
	}
	if err := DecodeBody(req(`{"name": "a", "extra": 1}`), &v); err != nil || v.Name != "a" {
		t.Fatalf("DecodeBody with an unknown key: %v %+v", err, v)
	}
	// The console's decoding is strict: an unknown key or a second object
	// is a mistake to report.
	for _, body := range []string{`{"name": "a", "nmae": "b"}`, `{"name": "a"} {"name": "b"}`, "null", "  "} {
		if err := DecodeStrict(req(body), &v); err == nil || StatusOf(err) != 400 {
			t.Errorf("DecodeStrict(%q) = %v, want 400", body, err)
		}
	}
	if err := DecodeOptional(req(""), &v); err != nil {
		t.Errorf("DecodeOptional of nothing: %v", err)
	}
	if err := DecodeOptional(req(`{"nmae": 1}`), &v); err == nil {
		t.Errorf("DecodeOptional lets an unknown key through")
	}
}

// A body the limit cut is a 413 that names the limit.
func TestBodyOverTheLimitIs413(t *testing.T) {
	r := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("x", 100)))
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 10)
	_, err := ReadBody(r)
	if StatusOf(err) != 413 || !strings.Contains(core.MessageOf(err), "10 bytes") {
		t.Fatalf("ReadBody past the limit: %v (%d)", err, StatusOf(err))
	}
}

// A body shorter than its Content-Length is what came, not an error.
func TestReadAllTakesAShortBody(t *testing.T) {
	got, err := readAll(strings.NewReader("abc"), 10)
	if err != nil || string(got) != "abc" {
		t.Fatalf("readAll = %q, %v", got, err)
	}
	long := strings.Repeat("y", 5000)
	got, err = readAll(strings.NewReader(long), -1)
	if err != nil || string(got) != long {
		t.Fatalf("readAll of an unsized body: %d bytes, %v", len(got), err)
	}
}

// An id means the same however the client escaped it.
func TestPathParamIsDecoded(t *testing.T) {
	r := chi.NewRouter()
	var got string
	r.Get("/maps/{id}", func(w http.ResponseWriter, r *http.Request) { got = PathParam(r, "id") })
	for _, path := range []string{"/maps/a%2Fb", "/maps/%61%2Fb"} {
		got = ""
		r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
		if got != "a/b" {
			t.Errorf("%s: id %q, want a/b", path, got)
		}
	}
}

// A request no guard saw is an unseated player on its address's device;
// WithActor's actor reads back.
func TestActorOf(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "192.0.2.7:5000"
	who := ActorOf(r)
	if who.Role != core.ClientPlayer || who.Seat != "" || who.Device != core.DeviceOf("", "", "192.0.2.7", "") {
		t.Fatalf("ActorOf an unguarded request = %+v", who)
	}
	seated := core.Actor{Role: core.ClientPlayer, Seat: "hash", Device: "d"}
	if got := ActorOf(WithActor(r, seated)); got != seated {
		t.Fatalf("ActorOf(WithActor) = %+v", got)
	}
}
