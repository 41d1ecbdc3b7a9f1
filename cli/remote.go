package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// The verbs a CI job runs without the database file: with --server URL
// (or $SITEPLAN_SERVER) and an API token in $SITEPLAN_TOKEN, verify,
// export, redirects export and status, import, dump and version create
// talk to a running server through its API (docs/api.md) instead of
// opening a database.

// remote is a siteplan server's API, as a verb uses it.
type remote struct {
	api   string // the server's /api/v1
	token string
	hc    *http.Client
}

// remoteRun does a verb on project id through the server's API.
type remoteRun func(ctx context.Context, r *remote, id int64, stdout io.Writer) error

// serverFlag adds --server to a verb's flags.
func serverFlag(fs *flag.FlagSet) *string {
	return fs.String("server", os.Getenv("SITEPLAN_SERVER"), "a running siteplan server to use through its API instead of --db (token in $SITEPLAN_TOKEN)")
}

// newRemote is the API of server, with the token of $SITEPLAN_TOKEN.
// Errors: what to fix in either.
func newRemote(server string) (*remote, error) {
	tok := strings.TrimSpace(os.Getenv("SITEPLAN_TOKEN"))
	if tok == "" {
		return nil, errors.New("--server needs an API token in $SITEPLAN_TOKEN (siteplan token create, or your account page)")
	}
	u, err := url.Parse(strings.TrimSpace(server))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--server %q: give the server's address, such as https://siteplan.agency.example", server)
	}
	return &remote{api: strings.TrimRight(u.String(), "/") + "/api/v1", token: tok, hc: &http.Client{Timeout: 2 * time.Minute}}, nil
}

// call sends one request (in, if not nil, as its JSON body) and reads
// the answer's JSON into out, if not nil; it returns the answer's body
// when out is nil. Errors: the server's problem, in its words, with the
// HTTP status.
func (r *remote) call(ctx context.Context, method, path string, in, out any) ([]byte, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.api+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+r.token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the server does not answer: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		var p struct {
			Detail string `json:"detail"`
		}
		if json.Unmarshal(b, &p) != nil || p.Detail == "" {
			p.Detail = http.StatusText(resp.StatusCode)
		}
		return nil, fmt.Errorf("%s (HTTP %d from the server)", p.Detail, resp.StatusCode)
	}
	if out != nil {
		return nil, json.Unmarshal(b, out)
	}
	return b, nil
}

// project is the API path of project id.
func project(id int64, parts ...string) string {
	return "/projects/" + strconv.FormatInt(id, 10) + strings.Join(append([]string{""}, parts...), "/")
}

// runRemote does a verb's remote run on project of server.
func runRemote(fs *flag.FlagSet, server, project string, remote remoteRun, stdout io.Writer) error {
	r, err := newRemote(server)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Name(), err)
	}
	id, err := strconv.ParseInt(project, 10, 64)
	if err != nil || id <= 0 {
		return fmt.Errorf("%s: --project ID is required (a number, as the server's address of the plan shows it)", fs.Name())
	}
	if err := remote(context.Background(), r, id, stdout); err != nil {
		return fmt.Errorf("%s: %w", fs.Name(), err)
	}
	return nil
}
