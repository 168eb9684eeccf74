package hostapi

import (
	"encoding/json"
	"errors"
	"html"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/templates"
	"github.com/vttapp/companion/wire"
)

// mountHostTables adds the game master's random tables (core's tables.go):
// the API, and a page per table with a Roll button at the address pages
// link, /table/<slug> (and /module/<m>/table/<t>, /campaign/<c>/table/<t>).
// Tables are the game master's: the public listener serves none.
func mountHostTables(r chi.Router, cfg httpkit.Config) {
	h := hostGame{cfg: cfg}
	r.Get("/host/api/tables", h.listTables)
	r.Post("/host/api/tables", h.putTable)
	r.Get("/host/api/tables/{id}", h.getTable)
	r.Post("/host/api/tables/{id}/roll", h.rollTable)
	for _, path := range []string{"/table/{table}", "/module/{owner}/table/{table}", "/campaign/{owner}/table/{table}"} {
		r.Get(path, h.tablePage)
		r.Post(path, h.tablePage)
	}
}

func (h hostGame) listTables(w http.ResponseWriter, r *http.Request) {
	list, err := h.cfg.Service.Tables(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, list)
}

func (h hostGame) getTable(w http.ResponseWriter, r *http.Request) {
	t, err := h.cfg.Service.Table(r.Context(), httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, t)
}

// putTable answers POST /host/api/tables: a Table as JSON, or text/csv
// with ?name= (the first line the header), stored in ?owner= (a module or
// campaign id; the primary campaign by default). 201 with the table.
func (h hostGame) putTable(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, core.MaxTableBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.fail(w, r, core.TooLargef("table: the body is larger than the limit of %d bytes", core.MaxTableBytes))
			return
		}
		h.fail(w, r, httpkit.BodyError(err))
		return
	}
	var t *core.Table
	media, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if media == "text/csv" {
		if err := core.CheckUTF8("body", data); err != nil {
			h.fail(w, r, err)
			return
		}
		t, err = core.TableFromCSV(r.URL.Query().Get("name"), data)
	} else {
		t, err = decodeTable(data)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out, err := h.cfg.Service.PutTable(r.Context(), t, r.URL.Query().Get("owner"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusCreated, out)
}

// decodeTable reads a Table as JSON, its bounds checked first.
func decodeTable(data []byte) (*core.Table, error) {
	if err := core.CheckUTF8("body", data); err != nil {
		return nil, err
	}
	if err := core.CheckJSON(data); err != nil {
		return nil, err
	}
	var t core.Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, core.Invalidf("table: %s", core.JSONErrorText(err))
	}
	return &t, nil
}

// rollTable answers POST /host/api/tables/{id}/roll {"private"?}: private
// (the game master's alone) unless "private" is false. 200 with the
// message posted and the roll.
func (h hostGame) rollTable(w http.ResponseWriter, r *http.Request) {
	var in wire.TableRollRequest
	if err := httpkit.DecodeOptional(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	private := in.Private == nil || *in.Private
	out, err := h.cfg.Service.RollTable(r.Context(), httpkit.PathParam(r, "id"), private)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, out)
}

// tablePage serves a table as a page for the game master: its grid and a
// Roll button (a form posting to the same address, privately or for
// everyone); after a roll, the result above the grid.
func (h hostGame) tablePage(w http.ResponseWriter, r *http.Request) {
	t, err := h.cfg.Service.Table(r.Context(), httpkit.PathParam(r, "table"))
	if err != nil {
		httpkit.WriteError(w, r, h.cfg.Log, err)
		return
	}
	var b strings.Builder
	b.WriteString(`<header class="page-head"><h1>`)
	b.WriteString(html.EscapeString(t.Name))
	b.WriteString(`</h1></header><article class="page table-page">`)
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
		private := r.FormValue("private") != "false"
		rolled, err := h.cfg.Service.RollTable(r.Context(), t.ID, private)
		if err != nil {
			httpkit.WriteError(w, r, h.cfg.Log, err)
			return
		}
		b.WriteString(`<section class="table-result" role="status"><h2>`)
		who := "everyone"
		if private {
			who = "you alone"
		}
		b.WriteString(html.EscapeString(rolled.Roll.Formula + ": " + strconv.Itoa(rolled.Roll.Result) + " (sent to the chat, for " + who + ")"))
		b.WriteString(`</h2>`)
		writeTableRoll(&b, rolled.Roll)
		b.WriteString(`</section>`)
	}
	if t.Descr != "" {
		b.WriteString(`<p>` + html.EscapeString(t.Descr) + `</p>`)
	}
	b.WriteString(`<form method="post"><button type="submit" name="private" value="true">Roll (private)</button> <button type="submit" name="private" value="false">Roll for everyone</button></form>`)
	b.WriteString(`<table><thead><tr>`)
	for _, c := range t.Columns {
		b.WriteString(`<th>` + html.EscapeString(c.Name) + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, row := range t.Rows {
		b.WriteString(`<tr>`)
		for _, cell := range row {
			b.WriteString(`<td>` + html.EscapeString(cell) + `</td>`)
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></article>`)
	page := templates.Page(templates.PageData{Title: t.Name, Kind: "page", CSS: []string{templates.PageCSS}, Body: []byte(b.String())})
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", strings.Replace(httpkit.PagePolicy, "form-action 'none'", "form-action 'self'", 1))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(page)
}

// writeTableRoll writes a roll's cells, and the rolls they led to nested.
func writeTableRoll(b *strings.Builder, roll core.TableRoll) {
	b.WriteString(`<dl>`)
	for _, d := range roll.Details {
		b.WriteString(`<dt>` + html.EscapeString(d.Name) + `</dt><dd>` + html.EscapeString(d.Value))
		for _, nested := range d.Rolls {
			b.WriteString(`<div class="nested"><strong>` + html.EscapeString(nested.Name+" ("+nested.Formula+": "+strconv.Itoa(nested.Result)+")") + `</strong>`)
			writeTableRoll(b, nested)
			b.WriteString(`</div>`)
		}
		b.WriteString(`</dd>`)
	}
	b.WriteString(`</dl>`)
}
