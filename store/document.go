package store

import (
	"context"
	"database/sql"

	"siteplan/site"
)

// ImportDocument stores a validated document as a new project of teamID in
// one transaction and returns the project's ID. Of pages that would share
// a URL, the first in outline order keeps it and a later one's derived
// slug is numbered ("faq-2"). Errors: EInvalid (also a typed slug or path
// an earlier page's URL has).
func (db *DB) ImportDocument(ctx context.Context, teamID int64, d *site.Document) (int64, error) {
	if err := d.Validate(); err != nil {
		return 0, err
	}
	p := d.Project.ToProject()
	p.TeamID = teamID
	if err := p.Validate(); err != nil {
		return 0, err
	}
	// The document's tree numbers its pages in the order they are
	// inserted below.
	tr, _ := d.Tree()
	renamed, err := tr.ClaimURLs([]int64{0})
	if err != nil {
		return 0, err
	}
	slugs := make(map[int64]string, len(renamed))
	for _, pg := range renamed {
		slugs[pg.ID] = pg.Slug
	}
	var n int64
	err = db.tx(ctx, func(tx *sql.Tx) error {
		if err := insertProject(ctx, tx, &p); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO pages (project_id, parent_id, position, title, slug, slug_auto, path, kind, placement,
			type, status, assignee, notes, in_sitemap, in_html_sitemap, priority, changefreq, lastmod)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		keys := map[string]int64{}
		pos := map[string]int{} // root positions per placement
		var add func(parent int64, list []*site.DocPage) error
		add = func(parent int64, list []*site.DocPage) error {
			for i, dp := range list {
				pg := dp.ToPage()
				n++
				if s, ok := slugs[n]; ok {
					pg.Slug = s
				}
				position := i
				if parent == 0 {
					position = pos[pg.Placement]
					pos[pg.Placement]++
				} else {
					pg.Placement = site.PlacementMain
				}
				res, err := stmt.ExecContext(ctx, p.ID, nullID(parent), position, pg.Title, pg.Slug, pg.SlugAuto, pg.Path, pg.Kind,
					pg.Placement, pg.Type, pg.Status, pg.Assignee, pg.Notes, pg.InSitemap, pg.InHTMLSitemap,
					nullFloat(pg.Priority), pg.Changefreq, pg.Lastmod)
				if err != nil {
					return err
				}
				id, err := res.LastInsertId()
				if err != nil {
					return err
				}
				if dp.Key != "" {
					keys[dp.Key] = id
				}
				if err := add(id, dp.Children); err != nil {
					return err
				}
			}
			return nil
		}
		if err := add(0, d.Pages); err != nil {
			return err
		}
		for _, l := range d.Links {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO links (project_id, from_id, to_id, label) VALUES (?, ?, ?, ?)`,
				p.ID, keys[l.From], keys[l.To], l.Label); err != nil {
				return err
			}
		}
		return nil
	})
	return p.ID, err
}

// Document returns the native document of a project. Errors: ENotFound.
func (db *DB) Document(ctx context.Context, projectID int64) (*site.Document, error) {
	t, err := db.Tree(ctx, projectID)
	if err != nil {
		return nil, err
	}
	links, err := db.Links(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return site.NewDocument(t, links), nil
}
