package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"siteplan/site"
)

// A localized plan's variants (site/locale.go): a row of page_variants
// per page and locale that says something the page itself does not.

// readVariants gives a project's pages their variants.
func readVariants(ctx context.Context, q querier, projectID int64, pages []site.Page) error {
	return readVariantsOf(ctx, q, pages, `project_id = ?`, projectID)
}

// readPagesVariants gives pages all their variants, looked up by their ids.
func readPagesVariants(ctx context.Context, q querier, pages []site.Page) error {
	ids := make([]int64, len(pages))
	for i := range pages {
		ids[i] = pages[i].ID
	}
	list, _ := json.Marshal(ids)
	return readVariantsOf(ctx, q, pages, `page_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(list))
}

// readVariantsOf gives pages the variants the condition where selects.
func readVariantsOf(ctx context.Context, q querier, pages []site.Page, where string, args ...any) error {
	if len(pages) == 0 {
		return nil
	}
	at := make(map[int64]int, len(pages))
	for i := range pages {
		at[pages[i].ID] = i
	}
	rows, err := q.QueryContext(ctx, `SELECT page_id, tag, title, slug, path, state, seo_title, meta_description, h1, keyword
		FROM page_variants WHERE `+where, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var tag string
		var v site.Variant
		if err := rows.Scan(&id, &tag, &v.Title, &v.Slug, &v.Path, &v.State, &v.SEOTitle, &v.MetaDescription, &v.H1, &v.Keyword); err != nil {
			return err
		}
		if i, ok := at[id]; ok {
			p := &pages[i]
			if p.Variants == nil {
				p.Variants = map[string]site.Variant{}
			}
			p.Variants[tag] = v
		}
	}
	return rows.Err()
}

// writeVariants makes a page's variants vars.
func writeVariants(ctx context.Context, tx *sql.Tx, projectID, pageID int64, vars map[string]site.Variant) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM page_variants WHERE page_id = ?`, pageID); err != nil {
		return err
	}
	for _, tag := range slices.Sorted(maps.Keys(vars)) {
		v := vars[tag]
		if _, err := tx.ExecContext(ctx, `INSERT INTO page_variants (page_id, project_id, tag, title, slug, path, state, seo_title, meta_description, h1, keyword)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, pageID, projectID, tag, v.Title, v.Slug, v.Path, v.State, v.SEOTitle, v.MetaDescription, v.H1, v.Keyword); err != nil {
			return err
		}
	}
	return nil
}

// Variants are page id's variants by locale tag (nil: none).
// Errors: none of its own; a database error as it is.
func (db *Pages) Variants(ctx context.Context, id int64) (map[string]site.Variant, error) {
	pages := []site.Page{{ID: id}}
	err := readVariantsOf(ctx, db.r, pages, `page_id = ?`, id)
	return pages[0].Variants, err
}

// wholeLocale is how many pages VariantsOf reads the variants of by
// their ids; past it, it reads the plan's variants in the locale.
const wholeLocale = 1000

// VariantsOf is the variants of the pages ids of project projectID in
// the locales tagged tags (their titles and states alone), by locale
// and page id, one query for them all: what the outline needs to show
// a stretch of the plan in a locale. A page without a variant in a
// locale is not in its map. Errors: none of its own.
func (db *Pages) VariantsOf(ctx context.Context, projectID int64, ids []int64, tags ...string) (map[string]map[int64]site.Variant, error) {
	out := make(map[string]map[int64]site.Variant, len(tags))
	args := []any{}
	for _, t := range tags {
		out[t] = map[int64]site.Variant{}
		args = append(args, t)
	}
	if len(ids) == 0 || len(tags) == 0 {
		return out, nil
	}
	list, _ := json.Marshal(ids)
	where := `page_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`
	args = append(args, string(list))
	if len(ids) > wholeLocale { // most of a plan: its variants in the locale, from the index alone, cost less than the list
		where, args[len(args)-1] = `project_id = ?`, projectID
	}
	rows, err := db.r.QueryContext(ctx, `SELECT tag, page_id, title, state FROM page_variants
		WHERE tag IN (?`+strings.Repeat(", ?", len(tags)-1)+`) AND `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var tag string
		var id int64
		var v site.Variant
		if err := rows.Scan(&tag, &id, &v.Title, &v.State); err != nil {
			return nil, err
		}
		if m := out[tag]; m != nil {
			m[id] = v
		}
	}
	return out, rows.Err()
}

// SetVariant makes page id's variant in the locale tagged tag v, as one
// change the history can undo. In the default locale only the state
// counts (the page is its own variant there); a variant that says
// nothing (planned, under the page's own words) is removed. Errors:
// EInvalid (a tag that is not one of the plan's locales, a bad state or
// slug, a sibling with the same URL in that locale), ENotFound.
func (db *Pages) SetVariant(ctx context.Context, projectID, id int64, tag string, v site.Variant) error {
	return db.editVariant(ctx, projectID, id, tag, func(string, site.Variant) site.Variant { return v })
}

// RetitleVariant gives page id the title title in the locale tagged tag
// (a rename in the outline shown in that locale), keeping the rest of
// its variant there; a slug that followed the title follows it. Errors:
// as SetVariant.
func (db *Pages) RetitleVariant(ctx context.Context, projectID, id int64, tag, title string) error {
	return db.editVariant(ctx, projectID, id, tag, func(pageTitle string, old site.Variant) site.Variant {
		if old.Slug == site.Slugify(cmp.Or(old.Title, pageTitle)) {
			old.Slug = "" // derived from the title: derived again below
		}
		old.Title = title
		return old
	})
}

// NameVariant sets page id's title, slug and state in the locale tagged
// tag (the details panel's row of that locale), keeping the brief's
// words and the path its variant there has. Errors: as SetVariant.
func (db *Pages) NameVariant(ctx context.Context, projectID, id int64, tag, title, slug, state string) error {
	return db.editVariant(ctx, projectID, id, tag, func(_ string, old site.Variant) site.Variant {
		old.Title, old.Slug, old.State = title, slug, state
		return old
	})
}

// editVariant makes page id's variant in the locale tagged tag what
// edit makes of it (given the page's title and its variant there), with
// SetVariant's rules, as one change.
func (db *Pages) editVariant(ctx context.Context, projectID, id int64, tag string, edit func(pageTitle string, old site.Variant) site.Variant) error {
	return db.change(ctx, func(j *journal) error {
		if err := j.inProject(projectID); err != nil {
			return err
		}
		if err := j.touch(id); err != nil {
			return err
		}
		now := j.pages[id].Before
		if now == nil {
			return site.Errorf(site.ENotFound, "Page %d does not exist.", id)
		}
		l, def, err := planLocale(ctx, j.tx, projectID, tag)
		if err != nil {
			return err
		}
		v := edit(now.Title, now.Variants[l.Tag])
		v.Title, v.Slug, v.Path = strings.TrimSpace(v.Title), strings.TrimSpace(v.Slug), strings.TrimSpace(v.Path)
		if l.Tag == def.Tag {
			v = site.Variant{State: v.State} // the page's own words are edited on the page
		}
		if err := site.CheckVariant(l.Tag, &v); err != nil {
			return err
		}
		if v.Title != "" && v.Slug == "" && l.Tag != def.Tag && now.Slug != "" {
			v.Slug = site.Slugify(v.Title) // a translated title gets its slug, as a page does (the home page has none)
		}
		if err := siblingClash(ctx, j.tx, projectID, now, id, l.Tag, v); err != nil {
			return err
		}
		if err := putVariant(ctx, j.tx, projectID, id, l.Tag, v); err != nil {
			return err
		}
		j.verb, j.pageID = "translate", id
		j.summary = "changed “" + now.Title + "” in " + l.Tag
		return nil
	})
}

// planLocale is the plan's locale tag names, and its default locale.
// Errors: EInvalid (a tag that is not one of the plan's locales).
func planLocale(ctx context.Context, tx *sql.Tx, projectID int64, tag string) (l, def site.Locale, err error) {
	pr, err := scanProject(tx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, projectID))
	if err != nil {
		return l, def, err
	}
	canon, err := site.ParseLocaleTag(tag)
	if err != nil {
		return l, def, err
	}
	l, ok := pr.Locale(canon)
	if !ok {
		return l, def, site.Errorf(site.EInvalid, "%q is not one of the plan's locales.", tag)
	}
	def, _ = site.DefaultLocale(pr.Locales)
	return l, def, nil
}

// putVariant writes page id's variant in the locale tagged tag (removes
// it when it says nothing: planned, under the page's own words), and
// counts the edit in the page's version.
func putVariant(ctx context.Context, tx *sql.Tx, projectID, id int64, tag string, v site.Variant) error {
	var err error
	if v == (site.Variant{State: site.VariantPlanned}) {
		_, err = tx.ExecContext(ctx, `DELETE FROM page_variants WHERE page_id = ? AND tag = ?`, id, tag)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO page_variants (page_id, project_id, tag, title, slug, path, state, seo_title, meta_description, h1, keyword)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (page_id, tag) DO UPDATE SET title = excluded.title, slug = excluded.slug, path = excluded.path, state = excluded.state,
				seo_title = excluded.seo_title, meta_description = excluded.meta_description, h1 = excluded.h1, keyword = excluded.keyword`,
			id, projectID, tag, v.Title, v.Slug, v.Path, v.State, v.SEOTitle, v.MetaDescription, v.H1, v.Keyword)
	}
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE pages SET version = version + 1 WHERE id = ?`, id)
	return err
}

// siblingClash refuses a variant whose slug a sibling of the page
// already has in that locale (its own variant's slug, or its slug).
func siblingClash(ctx context.Context, tx *sql.Tx, projectID int64, now *pageState, id int64, tag string, v site.Variant) error {
	slug := v.Slug
	if slug == "" {
		slug = now.Slug
	}
	if slug == "" || v.Path != "" {
		return nil
	}
	cond, args := siblingsOf(projectID, now.Parent, now.Placement)
	sibs, err := queryPages(ctx, tx, false, `SELECT `+pageCols+` FROM pages WHERE `+cond, args...)
	if err != nil {
		return err
	}
	if err := readVariantsOf(ctx, tx, sibs, `project_id = ? AND tag = ?`, projectID, tag); err != nil {
		return err
	}
	for _, s := range sibs {
		sv := s.Variants[tag]
		if s.ID != id && cmp.Or(sv.Slug, s.Slug) == slug && sv.Path == "" && sv.State != site.VariantNotOffered {
			return site.Errorf(site.EInvalid, "In %s, “%s” already has the slug %q under the same parent: give this page another.", tag, site.Clip(cmp.Or(sv.Title, s.Title), 60), slug)
		}
	}
	return nil
}

// SetBranchState sets the state of page root and every page below it in
// the locale tagged tag ("not offered in sv for this branch"), keeping
// their words there, as one change the history can undo. It returns how
// many pages changed. Errors: EInvalid (a tag that is not one of the
// plan's locales, a bad state), ENotFound.
func (db *Pages) SetBranchState(ctx context.Context, projectID, root int64, tag, state string) (int, error) {
	n := 0
	err := db.change(ctx, func(j *journal) error {
		if err := j.inProject(projectID); err != nil {
			return err
		}
		l, _, err := planLocale(ctx, j.tx, projectID, tag)
		if err != nil {
			return err
		}
		if err := site.CheckVariant(l.Tag, &site.Variant{State: state}); err != nil {
			return err
		}
		ids, err := subtreeIDs(ctx, j.tx, root)
		if err != nil {
			return err
		}
		if err := j.touch(ids...); err != nil {
			return err
		}
		if j.pages[root] == nil || j.pages[root].Before == nil {
			return site.Errorf(site.ENotFound, "Page %d does not exist.", root)
		}
		for _, id := range ids {
			now := j.pages[id].Before
			if now == nil {
				continue
			}
			v := now.Variants[l.Tag]
			if cmp.Or(v.State, site.VariantPlanned) == state {
				continue
			}
			v.State = state
			if err := putVariant(ctx, j.tx, projectID, id, l.Tag, v); err != nil {
				return err
			}
			n++
		}
		j.verb, j.pageID = "translate", root
		j.summary = "set “" + j.pages[root].Before.Title + "” and the pages below it " + strings.ReplaceAll(state, "_", " ") + " in " + l.Tag
		return nil
	})
	return n, err
}
