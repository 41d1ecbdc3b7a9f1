package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/export"
	"siteplan/site"
	"siteplan/views"
	"siteplan/workbook"
)

// rateCardStore is what the estimates and rate cards use.
type rateCardStore interface {
	SetRateCard(ctx context.Context, teamID, projectID int64, card site.RateCard) error
	ClearRateCard(ctx context.Context, projectID int64) error
	RateCard(ctx context.Context, teamID, projectID int64) (site.RateCard, string, bool, error)
	Pricing(ctx context.Context, teamID, projectID int64) (site.RateCard, string, bool, int, error)
	Priced(ctx context.Context, projectID int64, number int) (*site.Tree, int, site.RateCard, bool, error)
	VersionRateCard(ctx context.Context, projectID int64, number int) (site.RateCard, bool, error)
}

// estimateProps is the Summary panel's estimate of plan t: nil for a
// viewer who is not on the team (a client sees no rates).
func (s *Server) estimateProps(c echo.Context, t *site.Tree) (*views.EstimateProps, error) {
	if viewer(c).Share {
		return nil, nil
	}
	p := currentProject(c)
	card, source, ok, reviews, err := s.store.ratecards.Pricing(c.Request().Context(), p.TeamID, p.ID)
	if err != nil {
		return nil, err
	}
	props := &views.EstimateProps{ProjectID: p.ID, Source: source, CanSetTeam: viewer(c).TeamRole == site.RoleOwner}
	if ok {
		props.Estimate = card.Estimate(t, reviews)
	}
	return props, nil
}

// estimated prices the plan now, or version ?version=N by the card it
// kept. Errors: ENotFound (no card, no such version), EInvalid.
func (s *Server) estimated(c echo.Context, ctx context.Context) (*site.Estimate, site.RateCard, string, error) {
	p := currentProject(c)
	n := 0
	if v := c.QueryParam("version"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n <= 0 {
			return nil, site.RateCard{}, "", site.Errorf(site.EInvalid, "?version is a version's number, not %q.", v)
		}
	}
	e, card, err := s.priced(ctx, p.ID, n)
	if err != nil {
		return nil, card, "", err
	}
	label := "the plan now"
	if n != 0 {
		label = "version " + strconv.Itoa(n)
	}
	if e == nil {
		return nil, card, "", site.Errorf(site.ENotFound, "No rate card prices %s: an owner sets the team's on the Team page.", label)
	}
	return e, card, label, nil
}

// priced is project projectID's estimate now (number 0) or version
// number's, by the card that prices it: the one in force, or the one the
// version kept; nil when there is none. Errors: ENotFound (no such
// version).
func (s *Server) priced(ctx context.Context, projectID int64, number int) (*site.Estimate, site.RateCard, error) {
	t, reviews, card, ok, err := s.store.ratecards.Priced(ctx, projectID, number)
	if err != nil || !ok {
		return nil, card, err
	}
	return card.Estimate(t, reviews), card, nil
}

// estimateFile downloads the estimate as CSV, XLSX or JSON.
func (s *Server) estimateFile(c echo.Context) error {
	format := c.Param("type")
	if format == "" {
		format = c.QueryParam("format")
	}
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return err
	}
	defer done()
	e, card, label, err := s.estimated(c, ctx)
	if err != nil {
		return err
	}
	p := currentProject(c)
	var b bytes.Buffer
	typ := "text/csv; charset=utf-8"
	switch format {
	case "csv":
		err = export.WriteEstimateCSV(&b, e)
	case "xlsx":
		typ = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
		err = workbook.WriteEstimate(&b, e, card, p.Name+": estimate of "+label)
	case "json", "":
		return c.JSON(http.StatusOK, e)
	default:
		return site.Errorf(site.ENotFound, "No estimate format %q: use json, csv or xlsx.", format)
	}
	if err != nil {
		return err
	}
	attach(c, p, "-estimate."+format)
	return c.Blob(http.StatusOK, typ, b.Bytes())
}

// rateCardProps is the rate card form of the Team page (projectID 0) or
// of a project's settings: the card in force (a project's team's, to
// start from), else the documented example.
func (s *Server) rateCardProps(c echo.Context, teamID, projectID int64) (views.RateCardProps, error) {
	props := views.RateCardProps{ProjectID: projectID}
	card, source, ok, err := s.store.ratecards.RateCard(c.Request().Context(), teamID, projectID)
	if err != nil {
		return props, err
	}
	if !ok {
		if card, err = site.ParseRateCard(strings.NewReader(site.ExampleRateCard)); err != nil {
			return props, err
		}
	}
	b, err := json.MarshalIndent(card, "", "  ")
	props.Source, props.Card, props.JSON = source, card.Text(), string(b)
	return props, err
}

// setRateCard keeps the rate card a form sends: its fields and rows, or
// its JSON pasted (card); the team's (POST /team/ratecard) or a
// project's (POST /projects/ID/ratecard). A refused card comes back as
// it was sent, each field to fix marked.
func (s *Server) setRateCard(c echo.Context) error {
	teamID, projectID := cardOwner(c)
	props, err := s.rateCardProps(c, teamID, projectID)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	var card site.RateCard
	if pasted, ok := form["card"]; ok {
		props.JSON, props.Pasted = pasted[0], true
		card, err = site.ParseRateCard(strings.NewReader(props.JSON))
	} else {
		props.Card = rateCardForm(form)
		card, err = props.Card.Card()
	}
	if err == nil {
		err = s.store.ratecards.SetRateCard(c.Request().Context(), teamID, projectID, card)
	}
	if site.ErrorCode(err) == site.EInvalid {
		props.Error, props.Fields = site.ErrorMessage(err), site.ErrorFields(err)
		return rerender(c, err, views.RateCardForm(props, formToken(c)))
	} else if err != nil {
		return err
	}
	if projectID != 0 {
		return s.rateCardDone(c, teamID, "Saved: this plan is priced by its own card now.")
	}
	return s.rateCardDone(c, teamID, "Saved: the team's plans are priced by this card now, each version by the card it was named with.")
}

// rateCardDone answers a rate card saved or cleared: the form again,
// saying so (a page without htmx goes back to where the form is).
func (s *Server) rateCardDone(c echo.Context, teamID int64, said string) error {
	p := currentProject(c)
	if !isHTMX(c) {
		if p.ID != 0 {
			return redirect(c, projectPath(p.ID, "settings")+"#rate-card")
		}
		return redirect(c, "/team#rate-card")
	}
	props, err := s.rateCardProps(c, teamID, p.ID)
	if err != nil {
		return err
	}
	props.Saved = said
	return render(c, http.StatusOK, views.RateCardForm(props, formToken(c)))
}

// cardOwner is whose rate card a route reads or writes: the route's
// project's own (its team's in force where it has none), or, outside a
// project, the viewer's team's.
func cardOwner(c echo.Context) (teamID, projectID int64) {
	if p := currentProject(c); p.ID != 0 {
		return p.TeamID, p.ID
	}
	return viewer(c).Team.ID, 0
}

// rateCardForm is the card the rate card form sends: its fields, and
// its rows' fields in their order.
func rateCardForm(f url.Values) site.RateCardText {
	t := site.RateCardText{Currency: f.Get("currency"), HourlyRate: f.Get("hourly_rate"), Per100Words: f.Get("per_100_words_hours"),
		PerLocale: f.Get("per_locale_hours"), PerRedirect: f.Get("per_redirect_hours"), Margin: f.Get("margin_percent"),
		Rounding: f.Get("rounding"), Clients: f.Get("clients")}
	cell := func(name string, i int) string {
		if i < len(f[name]) {
			return f[name][i]
		}
		return ""
	}
	for i := range f["type_name"] {
		t.Types = append(t.Types, site.TypeRateText{Type: cell("type_name", i), FirstHours: cell("type_first_hours", i),
			EachHours: cell("type_each_hours", i), FirstPrice: cell("type_first_price", i), EachPrice: cell("type_each_price", i)})
	}
	for i := range f["block_kind"] {
		t.Blocks = append(t.Blocks, site.BlockRateText{Kind: cell("block_kind", i), Hours: cell("block_hours", i)})
	}
	for i := range f["fixed_name"] {
		t.Fixed = append(t.Fixed, site.FixedLineText{Name: cell("fixed_name", i), Hours: cell("fixed_hours", i), Price: cell("fixed_price", i)})
	}
	return t
}

// clearRateCard removes a project's own rate card: its team's prices it
// again.
func (s *Server) clearRateCard(c echo.Context) error {
	p := currentProject(c)
	if err := s.store.ratecards.ClearRateCard(c.Request().Context(), p.ID); err != nil {
		return err
	}
	return s.rateCardDone(c, p.TeamID, "Done: the team's card prices this plan again.")
}

// projectRateCard is the rate card form of project p's settings, for a
// viewer who may manage it (nil for others).
func (s *Server) projectRateCard(c echo.Context, p site.Project) (*views.RateCardProps, error) {
	if viewer(c).Access < site.AccessManage {
		return nil, nil
	}
	props, err := s.rateCardProps(c, p.TeamID, p.ID)
	return &props, err
}

// apiEstimate is the estimate (siteplan estimate): of the plan now or
// ?version=N, as JSON (?format=csv or xlsx for the files), or with
// ?from=N[&to=M] what changed between two versions' estimates.
func (s *Server) apiEstimate(c echo.Context) error {
	if c.QueryParam("from") == "" {
		return s.estimateFile(c)
	}
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return err
	}
	defer done()
	priced := func(q string) (*site.Estimate, error) {
		n, err := strconv.Atoi(c.QueryParam(q))
		if q == "to" && c.QueryParam(q) == "" {
			n, err = 0, nil
		}
		if err != nil || n < 0 {
			return nil, site.Errorf(site.EInvalid, "?%s is a version's number, not %q.", q, c.QueryParam(q))
		}
		e, _, err := s.priced(ctx, currentProject(c).ID, n)
		if err == nil && e == nil {
			err = site.Errorf(site.ENotFound, "No rate card prices version %d.", n)
		}
		return e, err
	}
	a, err := priced("from")
	if err != nil {
		return err
	}
	b, err := priced("to")
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a.ChangesTo(b))
}

// apiRateCard is the rate card of the token's team, or (:id) the one in
// force on a project, with whose it is.
func (s *Server) apiRateCard(c echo.Context) error {
	teamID, projectID := cardOwner(c)
	card, source, ok, err := s.store.ratecards.RateCard(c.Request().Context(), teamID, projectID)
	if err != nil {
		return err
	}
	if !ok {
		return site.Errorf(site.ENotFound, "No rate card: set the team's with PUT /api/v1/ratecard.")
	}
	c.Response().Header().Set("Rate-Card-Of", source)
	return c.JSON(http.StatusOK, card)
}

// apiSetRateCard keeps the rate card of the body (siteplan ratecard
// set): the team's, or (:id) the project's in its place.
func (s *Server) apiSetRateCard(c echo.Context) error {
	if ct := c.Request().Header.Get(echo.HeaderContentType); !strings.HasPrefix(ct, echo.MIMEApplicationJSON) {
		return site.Errorf(site.EInvalid, "Send the rate card as JSON (Content-Type: application/json), not %q.", ct)
	}
	card, err := site.ParseRateCard(c.Request().Body)
	if err != nil {
		return err
	}
	teamID, projectID := cardOwner(c)
	if err := s.store.ratecards.SetRateCard(c.Request().Context(), teamID, projectID, card); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, card)
}

// apiClearRateCard removes a project's own rate card.
func (s *Server) apiClearRateCard(c echo.Context) error {
	if err := s.store.ratecards.ClearRateCard(c.Request().Context(), currentProject(c).ID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// compareEstimates is what changed between the estimates of the two
// plans Compare shows (version from; version to, or the plan now when
// to is 0), each priced by its own card; nil when either has none, or
// for a viewer who is not on the team.
func (s *Server) compareEstimates(c echo.Context, from, to int, ft, tt *site.Tree, fo, to2 []site.OldURL) (*views.EstimateDiff, error) {
	if viewer(c).Share {
		return nil, nil
	}
	ctx, p := c.Request().Context(), currentProject(c)
	fc, ok, err := s.store.ratecards.VersionRateCard(ctx, p.ID, from)
	if err != nil || !ok {
		return nil, err
	}
	var tc site.RateCard
	if to != 0 {
		tc, ok, err = s.store.ratecards.VersionRateCard(ctx, p.ID, to)
	} else {
		tc, _, ok, _, err = s.store.ratecards.Pricing(ctx, p.TeamID, p.ID)
	}
	if err != nil || !ok {
		return nil, err
	}
	a, b := fc.Estimate(ft, site.ToReview(fo)), tc.Estimate(tt, site.ToReview(to2))
	d := &views.EstimateDiff{From: site.Money(a.TotalMinor, a.Currency), To: site.Money(b.TotalMinor, b.Currency)}
	for _, ch := range site.CompareEstimates(a, b) {
		d.Lines = append(d.Lines, ch.Words(b.Currency))
	}
	return d, nil
}

// versionEstimate is the estimate version n of the route's project was
// priced at, by the card it kept, for its page: the team sees it, a
// client on a share link only where the card says so (its total, which
// their sign-off covers). It prices the whole version, whatever a link
// shows of it: what is approved is what was priced. Nil when none.
func (s *Server) versionEstimate(c echo.Context, n int) (*views.VersionEstimate, error) {
	p, v := currentProject(c), viewer(c)
	e, err := s.versionPriced(c, n)
	if err != nil || e == nil {
		return nil, err
	}
	return &views.VersionEstimate{Total: site.Money(e.TotalMinor, e.Currency), Hours: e.TotalHours.String(), Team: !v.Share,
		Download: projectPath(p.ID, "estimate", "xlsx") + "?version=" + strconv.Itoa(n)}, nil
}

// versionPriced is version n's estimate by the card it kept, of the
// whole version, where the viewer may see it (nil otherwise, and when
// it kept no card).
func (s *Server) versionPriced(c echo.Context, n int) (*site.Estimate, error) {
	ctx, p := c.Request().Context(), currentProject(c)
	if viewer(c).Share { // the card says first, before the version's pages are read
		card, ok, err := s.store.ratecards.VersionRateCard(ctx, p.ID, n)
		if err != nil || !ok || card.Clients != site.ClientsTotal {
			return nil, err
		}
	}
	e, _, err := s.priced(site.WithViewer(ctx, site.Viewer{}), p.ID, n)
	return e, err
}
