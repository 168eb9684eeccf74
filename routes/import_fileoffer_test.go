package routes

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/internal/testkit"
)

// TestHostFileOffer: a file posted as multipart to /host/api/offers (the
// desktop hand-off) waits as an offer naming it and is installed once
// accepted.
func TestHostFileOffer(t *testing.T) {
	env := newImportEnv(t)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "marsh-bats.module")
	part.Write(batsArchive(t, "1.0.0", "Cave Bat"))
	mw.Close()
	status, reply := testkit.Do(t, "POST", env.host.URL+"/host/api/offers", mw.FormDataContentType(), &body)
	if status != http.StatusCreated {
		t.Fatalf("%d %s", status, reply)
	}
	var o imports.Offer
	importJSON(t, reply, &o)
	if o.Status != imports.StatusPending || o.File != "marsh-bats.module" || o.From != "file" {
		t.Fatalf("offer %+v", o)
	}
	if status, reply := testkit.Do(t, "POST", env.host.URL+"/host/api/offers/"+o.ID+"/accept", "", nil); status != http.StatusAccepted {
		t.Fatalf("accept %d %s", status, reply)
	}
	o = importWaitOffer(t, env, o.ID, false)
	if o.Status != imports.StatusInstalled || o.Result == nil || o.Result.ID == "" {
		t.Fatalf("offer %+v", o)
	}
	// Without a file field, a clear 400.
	body.Reset()
	mw = multipart.NewWriter(&body)
	mw.WriteField("note", "x")
	mw.Close()
	if status, reply := testkit.Do(t, "POST", env.host.URL+"/host/api/offers", mw.FormDataContentType(), &body); status != http.StatusBadRequest {
		t.Fatalf("no file: %d %s", status, reply)
	}
}
