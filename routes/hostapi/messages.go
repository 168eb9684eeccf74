package hostapi

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// hostMessageCount is how many messages the console's log shows.
const hostMessageCount = 100

func mountHostMessages(r chi.Router, h hostGame) {
	r.Get("/host/api/messages", h.listMessages)
	r.Post("/host/api/messages", h.postMessage)
}

// listMessages answers GET /host/api/messages: the log with the private
// rolls, oldest first.
func (h hostGame) listMessages(w http.ResponseWriter, r *http.Request) {
	list, err := h.cfg.Service.HostMessages(r.Context(), hostMessageCount)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, list)
}

// postMessage answers POST /host/api/messages {text, creature?, color?,
// private?, to?}: a message from the game master, or spoken by a
// creature. A private one (a GM roll) is stored and sent to the host
// console alone; one with "to" (seat ids) is whispered to those seats
// (core's whisper.go), as /w in the text is.
// The game master typed it, as a player types a chat line: a /roll whose
// expression cannot be rolled is refused with the same words
// (Service.PostMessage) rather than stored, and reported, as rolled.
func (h hostGame) postMessage(w http.ResponseWriter, r *http.Request) {
	var in wire.HostMessage
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	m := &core.Message{Text: in.Text, Creature: strings.TrimSpace(in.Creature), Color: in.Color, Private: in.Private, ToSeats: in.To}
	out, err := h.cfg.Service.PostMessage(r.Context(), m)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusCreated, out)
}
