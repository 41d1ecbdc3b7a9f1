package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"siteplan/site"
)

// SetRateCard keeps team teamID's rate card, or (projectID non-zero) the
// one that replaces it on that project of the team. Errors: ENotFound
// (no such project in the team).
func (db *RateCards) SetRateCard(ctx context.Context, teamID, projectID int64, card site.RateCard) error {
	b, err := json.Marshal(card)
	if err != nil {
		return err
	}
	by := authorName(site.ViewerFrom(ctx))
	return db.tx(ctx, func(tx *sql.Tx) error {
		if projectID != 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM projects WHERE id = ? AND team_id = ?`, projectID, teamID).Scan(&n); err != nil || n == 0 {
				return notFound(sql.ErrNoRows, "Project %d is not one of this team's.", projectID)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM rate_cards WHERE team_id = ? AND coalesce(project_id, 0) = ?`, teamID, projectID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO rate_cards (team_id, project_id, card, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)`,
			teamID, nullID(projectID), string(b), fmtTime(db.Now().UTC()), by)
		return err
	})
}

// ClearRateCard removes project projectID's own rate card: the team's is
// in force again. Errors: none of its own.
func (db *RateCards) ClearRateCard(ctx context.Context, projectID int64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM rate_cards WHERE project_id = ?`, projectID)
		return err
	})
}

// RateCard returns the rate card in force on project projectID of team
// teamID (0: the team's own) and whose it is ("project", "team"); ok is
// false when there is none. Errors: none of its own.
func (db *RateCards) RateCard(ctx context.Context, teamID, projectID int64) (card site.RateCard, source string, ok bool, err error) {
	return rateCardOf(ctx, db.r, teamID, projectID)
}

func rateCardOf(ctx context.Context, q querier, teamID, projectID int64) (site.RateCard, string, bool, error) {
	text, own, err := rateCardRow(ctx, q, teamID, projectID)
	if err != nil || text == "" {
		return site.RateCard{}, "", false, err
	}
	card, err := site.ParseRateCard(strings.NewReader(text))
	source := site.CardOfTeam
	if own {
		source = site.CardOfProject
	}
	return card, source, err == nil, err
}

// rateCardRow is the card in force on project projectID of team teamID
// (0: the team's own) as it is kept, its JSON ("" for none), and
// whether it is the project's own.
func rateCardRow(ctx context.Context, q querier, teamID, projectID int64) (text string, own bool, err error) {
	var project int64
	err = q.QueryRowContext(ctx, `SELECT card, coalesce(project_id, 0) FROM rate_cards WHERE team_id = ? AND (project_id IS NULL OR project_id = ?)
		ORDER BY project_id IS NULL LIMIT 1`, teamID, projectID).Scan(&text, &project)
	if err == sql.ErrNoRows {
		return "", false, nil
	}
	return text, project != 0, err
}

// VersionRateCard returns the rate card version number of a project
// kept when it was named; ok is false when none was in force then.
// Errors: ENotFound.
func (db *RateCards) VersionRateCard(ctx context.Context, projectID int64, number int) (site.RateCard, bool, error) {
	var text string
	if err := db.r.QueryRowContext(ctx, `SELECT rate_card FROM versions WHERE project_id = ? AND number = ?`, projectID, number).Scan(&text); err != nil {
		return site.RateCard{}, false, notFound(err, "This plan has no version %d.", number)
	}
	if text == "" {
		return site.RateCard{}, false, nil
	}
	card, err := site.ParseRateCard(strings.NewReader(text))
	return card, err == nil, err
}

// cardText is the rate card in force on project projectID as it is
// kept (the JSON SetRateCard wrote), "" for none.
func cardText(ctx context.Context, q querier, projectID int64) (string, error) {
	var teamID int64
	if err := q.QueryRowContext(ctx, `SELECT team_id FROM projects WHERE id = ?`, projectID).Scan(&teamID); err != nil {
		return "", notFound(err, "Project %d does not exist.", projectID)
	}
	text, _, err := rateCardRow(ctx, q, teamID, projectID)
	return text, err
}

// Pricing is what prices the plan of project projectID (of team
// teamID) as it is now, besides its pages: the rate card in force
// (ok false when there is none) and whose it is, and how many of its old
// URLs a person reviews (those the plan does not keep at the same URL).
// Errors: none of its own.
func (db *RateCards) Pricing(ctx context.Context, teamID, projectID int64) (card site.RateCard, source string, ok bool, reviews int, err error) {
	if card, source, ok, err = rateCardOf(ctx, db.r, teamID, projectID); err != nil || !ok {
		return card, source, ok, 0, err
	}
	err = db.r.QueryRowContext(ctx, `SELECT count(*) FROM old_urls WHERE project_id = ? AND disposition != ?`, projectID, site.DispositionKeep).Scan(&reviews)
	return card, source, ok, reviews, err
}

// Priced is what an estimate of project projectID is made of: the plan
// now (number 0) or version number's, how many of its old URLs a person
// reviews, and the rate card that prices it: the one in force now, or
// the one the version kept. ok is false when there is no card. Errors:
// ENotFound.
func (db *RateCards) Priced(ctx context.Context, projectID int64, number int) (t *site.Tree, reviews int, card site.RateCard, ok bool, err error) {
	if number == 0 {
		if t, err = db.parts.Pages.Tree(ctx, projectID); err != nil {
			return nil, 0, card, false, err
		}
		card, _, ok, reviews, err = db.Pricing(ctx, t.Project.TeamID, projectID)
		return t, reviews, card, ok, err
	}
	_, t, olds, err := db.parts.History.PlanAt(ctx, projectID, number)
	if err != nil {
		return nil, 0, card, false, err
	}
	card, ok, err = db.VersionRateCard(ctx, projectID, number)
	return t, site.ToReview(olds), card, ok, err
}
