package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"siteplan/diagram"
	"siteplan/jobs"
	"siteplan/site"
	"siteplan/static"
	"siteplan/store"
	"siteplan/web"
)

// serveCmd runs the web editor until SIGINT or SIGTERM, then shuts down
// gracefully.
func serveCmd(fs *flag.FlagSet, args []string, _ io.Reader, _ io.Writer) error {
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	allowPrivate := fs.Bool("allow-private-fetch", false, "let visitors read sites on loopback, private and link-local addresses (an intranet)")
	smtpURL := fs.String("smtp", "", "e-mail notifications through this server: smtp://user:password@host:port (STARTTLS when offered; ?tls=required) or smtps://…")
	mailFrom := fs.String("mail-from", "", "the address notification e-mails come from (with --smtp)")
	publicURL := fs.String("public-url", "", "where people reach the server, such as https://plans.agency.example, for the links webhooks carry (default http://ADDR)")
	trusted := fs.String("trusted-proxies", os.Getenv("SITEPLAN_TRUSTED_PROXIES"), "believe X-Forwarded-For and X-Forwarded-Proto only from these load balancers: CIDR ranges or addresses, comma-separated (default $SITEPLAN_TRUSTED_PROXIES; none: the headers are ignored)")
	if err := parse(fs, args); err != nil {
		return err
	}
	proxies, err := web.ParseProxies(*trusted)
	if err != nil {
		return fmt.Errorf("serve: --trusted-proxies: %s", site.ErrorMessage(err))
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var mailer *jobs.SMTP
	if *smtpURL != "" {
		m, err := jobs.ParseSMTP(*smtpURL, *mailFrom)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		mailer = &m
	}
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	// Graphviz lays out in a child process, so that a large layout
	// neither pauses the server nor runs on once given up on.
	if err := diagram.UseWorkerProcess(); err != nil {
		return err
	}
	if *publicURL == "" {
		*publicURL = "http://" + *addr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := web.New(WebStores(db), static.FS, log, web.Config{AllowPrivateFetch: *allowPrivate, TrustedProxies: proxies, Mailing: mailer != nil})
	srv.Start()
	defer srv.Close() // before the database closes
	background := jobs.Start(ctx, JobStores(db), jobs.Config{Log: log, PublicURL: *publicURL, AllowPrivate: *allowPrivate, SMTP: mailer,
		Published: srv.Published})
	defer background.Close() // first: readings cancelled, their imports removed
	hs := srv.HTTPServer(*addr)
	errc := make(chan error, 1)
	go func() { errc <- hs.ListenAndServe() }()
	log.Info("siteplan is running", "url", "http://"+*addr, "db", store.Redacted(fs.Lookup("db").Value.String()))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return hs.Shutdown(shutdown)
}
