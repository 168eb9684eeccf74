package core

import "unicode/utf8"

// CheckUTF8 refuses text that is not UTF-8: JSON text must be (RFC 8259
// 8.1), and encoding/json would quietly store U+FFFD for the bad bytes, so
// what is kept would not be what the client sent. what names the text in
// the message ("body", "message"). HTTP bodies and WebSocket frames share
// it, so both refuse alike.
func CheckUTF8(what string, data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	at := 0
	for at < len(data) {
		r, size := utf8.DecodeRune(data[at:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		at += size
	}
	return Invalidf("%s is not UTF-8 text: invalid byte at offset %d", what, at)
}
