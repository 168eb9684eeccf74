package routes

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/guard"
)

// statusOf is the one place that maps a core error kind to an HTTP status
// (contract section 7).
func statusOf(err error) int {
	if errors.Is(err, guard.ErrBodyTooSlow) {
		return http.StatusRequestTimeout // bodytime.go
	}
	switch core.KindOf(err) {
	case core.KindInvalid:
		return http.StatusBadRequest
	case core.KindNotFound:
		return http.StatusNotFound
	case core.KindConflict:
		return http.StatusConflict
	case core.KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case core.KindForbidden:
		return http.StatusForbidden
	case core.KindRateLimited:
		return http.StatusTooManyRequests
	default:
		return http.StatusInternalServerError
	}
}

// writeError answers err as {"message": ...} with its status. Internal
// errors are logged with their cause and answered with a generic text, so
// no Go error ever reaches a client.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	status := statusOf(err)
	if status == http.StatusInternalServerError && log != nil {
		log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeMessage(w, status, core.MessageOf(err))
}

// writeMessage answers status with {"message": text}.
func writeMessage(w http.ResponseWriter, status int, text string) {
	guard.WriteMessage(w, status, text)
}

// bodyError turns a failure to read or decode a request body into a core
// error: too large (413), too slow (408) or invalid (400) with a text
// naming what is wrong.
func bodyError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return core.TooLargef("request body is larger than the limit of %d bytes", tooLarge.Limit)
	}
	if errors.Is(err, guard.ErrBodyTooSlow) {
		return &core.Error{Kind: core.KindInvalid, Message: guard.ErrBodyTooSlow.Error(), Err: guard.ErrBodyTooSlow}
	}
	if core.KindOf(err) != core.KindInternal {
		return err
	}
	return core.Invalidf("%s", core.JSONErrorText(err))
}
