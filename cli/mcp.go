package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"siteplan/static"
	"siteplan/web"
)

// mcpCmd serves siteplan's MCP server over stdio for an agent on this
// machine, as the token of $SITEPLAN_TOKEN: on the database of --db, or
// with --server through that server's /mcp (the same tools, answered
// there).
func mcpCmd(fs *flag.FlagSet, args []string, stdin io.Reader, stdout io.Writer) error {
	server := serverFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	token := strings.TrimSpace(os.Getenv("SITEPLAN_TOKEN"))
	if token == "" {
		return errors.New("mcp: set $SITEPLAN_TOKEN to an API token (siteplan token create, or your account page)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var srv *mcp.Server
	if *server != "" {
		r, err := newRemote(*server)
		if err != nil {
			return fmt.Errorf("mcp: %w", err)
		}
		if srv, err = relayMCP(ctx, r); err != nil {
			return fmt.Errorf("mcp: %w", err)
		}
	} else {
		db, err := openDB(fs)
		if err != nil {
			return fmt.Errorf("mcp: %w", err)
		}
		defer db.Close()
		use, err := db.Tokens.UseToken(ctx, token)
		if err != nil {
			return fmt.Errorf("mcp: %w", err)
		}
		w := web.New(WebStores(db), static.FS, slog.New(slog.NewTextHandler(io.Discard, nil)), web.Config{})
		defer w.Close()
		srv = w.MCPServer(use.Viewer())
	}
	return srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// relayMCP is a stdio server whose tools and resources are those of the
// server r names, each call sent on to it.
func relayMCP(ctx context.Context, r *remote) (*mcp.Server, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "siteplan-relay", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: strings.TrimSuffix(r.api, "/api/v1") + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{r.token}, Timeout: r.hc.Timeout}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, fmt.Errorf("the server's MCP endpoint: %w", err)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "siteplan", Version: "1.0.0"}, nil)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	for _, t := range tools.Tools {
		srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return cs.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		})
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		return nil, err
	}
	for _, rt := range templates.ResourceTemplates {
		srv.AddResourceTemplate(rt, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: req.Params.URI})
		})
	}
	return srv, nil
}

// bearer sends an API token with each request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
