package httpkit

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/guard"
)

// StatusOf is the one place that maps a core error kind to an HTTP status
// (contract section 7).
func StatusOf(err error) int {
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

// WriteError answers err as {"message": ...} with its status. Internal
// errors are logged with their cause and answered with a generic text, so
// no Go error ever reaches a client.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	status := StatusOf(err)
	if status == http.StatusInternalServerError && log != nil {
		log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	WriteMessage(w, status, core.MessageOf(err))
}

// WriteMessage answers status with {"message": text}.
func WriteMessage(w http.ResponseWriter, status int, text string) {
	guard.WriteMessage(w, status, text)
}

// BodyError turns a failure to read or decode a request body into a core
// error: too large (413), too slow (408) or invalid (400) with a text
// naming what is wrong.
func BodyError(err error) error {
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

// NotFound answers an unrouted path with a JSON 404.
func NotFound(w http.ResponseWriter, r *http.Request) {
	WriteMessage(w, http.StatusNotFound, fmt.Sprintf("nothing at %s", r.URL.Path))
}
