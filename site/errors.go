// Package site is the domain of siteplan: projects, pages, links, the page
// tree, the URL rules and the native JSON document. It imports only the
// standard library, x/net/idna and a slug library.
package site

import (
	"errors"
	"fmt"
)

// Error codes. Adapters map them to their own vocabulary (HTTP status, exit
// codes) in one place.
const (
	EInvalid  = "invalid"
	ENotFound = "not_found"
	EConflict = "conflict"
	// EStale: a write named the version it was made from (If-Match), and
	// the thing has changed since.
	EStale        = "precondition_failed"
	EForbidden    = "forbidden"
	EUnauthorized = "unauthorized"
	ETooLarge     = "too_large"
	ETooMany      = "too_many_requests"
	EUnavailable  = "unavailable" // the work ran out of time waiting: try again
	EInternal     = "internal"
)

// Error is a domain error whose Message is safe to show to a user. Fields,
// when set, maps form field names to a message about that field.
type Error struct {
	Code    string
	Message string
	Fields  map[string]string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldErrors collects per-field validation messages.
type FieldErrors map[string]string

// Add records msg for field unless the field already has a message.
func (f FieldErrors) Add(field, msg string) {
	if _, ok := f[field]; !ok {
		f[field] = msg
	}
}

// Err returns nil when there are no messages, otherwise an EInvalid *Error
// carrying them.
func (f FieldErrors) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Code: EInvalid, Message: "Please correct the highlighted fields.", Fields: f}
}

// ErrorCode returns the code of err if it is (or wraps) an *Error, EInternal
// otherwise, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EInternal
	}
}

// ErrorMessage returns the user-safe message of err; internal errors get a
// generic message so nothing of the internals leaks.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

// ErrorFields returns the per-field messages of err, if any.
func ErrorFields(err error) map[string]string {
	var e *Error
	if errors.As(err, &e) {
		return e.Fields
	}
	return nil
}
