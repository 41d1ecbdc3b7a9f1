package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"
)

// healthcheckCmd asks a server's /healthz and exits 0 when it answers
// 200: the container image's HEALTHCHECK, which has no shell or curl.
func healthcheckCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	u := fs.String("url", "http://127.0.0.1:8080/healthz", "the server's health check")
	if err := parse(fs, args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *u, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d", *u, resp.StatusCode)
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}
