package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDeadlineIsBusy: heavy work that runs out of its time (it got its
// turn just before its deadline) answers 503 with Retry-After, as a busy
// server, not 500; a route's error that is no deadline stays a 500.
func TestDeadlineIsBusy(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		err    error
		status int
		retry  bool
	}{
		{fmt.Errorf("render: %w", context.DeadlineExceeded), http.StatusServiceUnavailable, true},
		{fmt.Errorf("render: broken"), http.StatusInternalServerError, false},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/projects/1/sitemap.xml", nil)
		c.srv.handleError(tc.err, c.srv.Echo.NewContext(req, rec))
		if rec.Code != tc.status || (rec.Header().Get("Retry-After") != "") != tc.retry {
			t.Errorf("%v: %d, Retry-After %q; want %d", tc.err, rec.Code, rec.Header().Get("Retry-After"), tc.status)
		}
		if tc.retry && !strings.Contains(rec.Body.String(), "try again in a few seconds") {
			t.Errorf("%v: %.200s", tc.err, rec.Body.String())
		}
	}
}
