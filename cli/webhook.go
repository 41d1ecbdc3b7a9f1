package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"siteplan/site"
)

// webhookAddCmd adds an outgoing webhook to a team and prints its id and
// secret (with which a JSON delivery is signed).
func webhookAddCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	team := fs.String("team", "", "team id or name")
	u := fs.String("url", "", "the receiver's http or https URL")
	format := fs.String("format", site.WebhookJSON, "slack or json")
	secret := fs.String("secret", "", "the secret a JSON delivery is signed with (made for you if empty)")
	events := fs.String("events", "", "the events, comma-separated: comment, reply, signoff, version, launch (all if empty)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *u == "" {
		return errors.New("webhook add: --url is required")
	}
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	t, err := db.Teams.FindTeam(ctx, *team)
	if err != nil {
		return fmt.Errorf("webhook add: %w", err)
	}
	w := site.Webhook{TeamID: t.ID, URL: *u, Format: *format, Secret: *secret}
	if *events != "" {
		for _, e := range strings.Split(*events, ",") {
			w.Events = append(w.Events, strings.TrimSpace(e))
		}
	}
	if err := db.Webhooks.AddWebhook(ctx, &w); err != nil {
		return fmt.Errorf("webhook add: %s", site.PageFieldProblem(err))
	}
	fmt.Fprintf(stdout, "webhook %d of team %q: %s (%s)\nsecret: %s\n", w.ID, t.Name, w.URL, w.Format, w.Secret)
	return nil
}
