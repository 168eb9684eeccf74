package core

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrorKind classifies a failure so that each transport (HTTP, WebSocket,
// CLI) can map it to its own vocabulary in exactly one place.
type ErrorKind int

const (
	// KindInternal is an unexpected failure: a bug or a broken store.
	KindInternal ErrorKind = iota
	// KindInvalid means the caller sent something malformed or inconsistent.
	KindInvalid
	// KindNotFound means the named object does not exist (or is not of the
	// kind the caller asked for).
	KindNotFound
	// KindConflict means the request is well formed but cannot be applied to
	// the current state (a locked token, an installed package, ...).
	KindConflict
	// KindTooLarge means a body, archive or expression exceeds a limit.
	KindTooLarge
	// KindForbidden means the caller may not do this: a spectator chatting,
	// a player writing another player's character (seats.go).
	KindForbidden
	// KindRateLimited means the caller asked too often: one device's
	// messages past its budget (messagebudget.go), a device minting passes
	// over and over (access.go). Trying again later works.
	KindRateLimited
)

func (k ErrorKind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindNotFound:
		return "not found"
	case KindConflict:
		return "conflict"
	case KindTooLarge:
		return "too large"
	case KindForbidden:
		return "forbidden"
	case KindRateLimited:
		return "rate limited"
	default:
		return "internal"
	}
}

// Error is the one error type the domain returns. Message is safe to show to
// a user; Err (optional) is the underlying cause for the log.
type Error struct {
	Kind    ErrorKind
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Invalidf returns a KindInvalid error with a formatted user-facing message.
func Invalidf(format string, args ...any) error {
	return &Error{Kind: KindInvalid, Message: fmt.Sprintf(format, args...)}
}

// NotFoundf returns a KindNotFound error with a formatted user-facing message.
func NotFoundf(format string, args ...any) error {
	return &Error{Kind: KindNotFound, Message: fmt.Sprintf(format, args...)}
}

// Conflictf returns a KindConflict error with a formatted user-facing message.
func Conflictf(format string, args ...any) error {
	return &Error{Kind: KindConflict, Message: fmt.Sprintf(format, args...)}
}

// TooLargef returns a KindTooLarge error with a formatted user-facing message.
func TooLargef(format string, args ...any) error {
	return &Error{Kind: KindTooLarge, Message: fmt.Sprintf(format, args...)}
}

// Forbiddenf returns a KindForbidden error with a formatted user-facing message.
func Forbiddenf(format string, args ...any) error {
	return &Error{Kind: KindForbidden, Message: fmt.Sprintf(format, args...)}
}

// RateLimitedf returns a KindRateLimited error with a formatted user-facing message.
func RateLimitedf(format string, args ...any) error {
	return &Error{Kind: KindRateLimited, Message: fmt.Sprintf(format, args...)}
}

// Internal wraps an unexpected error; its message is generic so that no
// internal detail leaks to a client.
func Internal(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Kind: KindInternal, Message: "internal error", Err: err}
}

// KindOf reports the kind of err; errors that are not *Error are internal.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// MessageOf returns the user-facing message of err.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		if e.Message != "" {
			return e.Message
		}
	}
	return "internal error"
}

// IsNotFound reports whether err is a KindNotFound error.
func IsNotFound(err error) bool { return err != nil && KindOf(err) == KindNotFound }

// maxQuoted is the longest value Clip leaves whole, in bytes.
const maxQuoted = 100

// Clip shortens a value a client sent (an id, a label, a query value) for
// quoting in an error message: past maxQuoted bytes it is cut on a rune
// boundary and ends with "…", so a huge value is never echoed back whole.
func Clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func asError(err error, target any) bool { return errors.As(err, target) }
