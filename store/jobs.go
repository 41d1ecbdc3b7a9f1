package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"io"
	"time"

	"siteplan/site"
)

// Live-site jobs (site.Job) are rows that any server on the database may
// claim: a waiting row goes to one server (FOR UPDATE SKIP LOCKED on
// PostgreSQL, whose claims do not wait for one another; SQLite's one
// writer claims one at a time), which says it is alive as it runs (a
// beat); a job whose server stops beating is failed by any other. The
// unique indexes of site_jobs hold a visitor to one job not ended and a
// team to one job reading, across servers. Their writes take no plan's
// lock (rowTx).

// jobTime is how site_jobs keeps its times: to the microsecond, as the
// order of a team's turns goes by them.
const jobTime = "2006-01-02T15:04:05.000000Z"

// jobChunk is the size of the pieces an upload is kept in.
const jobChunk = 1 << 20

// jobCols are the columns jobRow reads, report last.
const jobCols = `id, kind, COALESCE(user_id, 0), COALESCE(token_id, 0), team_id, COALESCE(project_id, 0), version, by_name, source, name, upload, state,
	instance, created, COALESCE(started, ''), COALESCE(ended, ''), progress, error, dropped, credentials`

func jobRow(row interface{ Scan(...any) error }, withReport bool) (site.Job, error) {
	var j site.Job
	var upload, dropped int
	var created, started, ended string
	dst := []any{&j.ID, &j.Kind, &j.UserID, &j.TokenID, &j.TeamID, &j.ProjectID, &j.Version, &j.By, &j.Source, &j.Name, &upload, &j.State,
		&j.Instance, &created, &started, &ended, &j.Progress, &j.Error, &dropped, &j.Credentials}
	if withReport {
		dst = append(dst, &j.Report)
	}
	if err := row.Scan(dst...); err != nil {
		return j, translate(err)
	}
	j.Upload, j.Dropped = upload != 0, dropped != 0
	j.Created, _ = time.Parse(jobTime, created)
	j.Started, _ = time.Parse(jobTime, started)
	j.Ended, _ = time.Parse(jobTime, ended)
	return j, nil
}

// CreateJob keeps a new waiting job, and the file upload holds if it is
// not nil, in one transaction; it returns the job with its ID. Errors:
// ETooMany (the visitor has a job not ended), and those of reading
// upload.
func (db *Jobs) CreateJob(ctx context.Context, j site.Job, upload io.Reader) (site.Job, error) {
	b := make([]byte, 16)
	rand.Read(b)
	j.ID, j.State, j.Created, j.Upload = hex.EncodeToString(b), site.JobWaiting, db.Now().UTC(), upload != nil
	err := db.rowTx(ctx, func(tx *sql.Tx) error {
		var seq int64
		err := tx.QueryRowContext(ctx, `INSERT INTO site_jobs (id, kind, user_id, token_id, team_id, project_id, version, by_name, source, name, upload, created, credentials)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
			j.ID, j.Kind, nullID(j.UserID), nullID(j.TokenID), j.TeamID, nullID(j.ProjectID), j.Version, j.By, j.Source, j.Name, j.Upload, j.Created.Format(jobTime), j.Credentials).Scan(&seq)
		if site.ErrorCode(translate(err)) == site.EConflict {
			return site.Errorf(site.ETooMany, "You are already reading a site or checking one: wait for it to finish, or cancel it, then try again.")
		}
		if err != nil || upload == nil {
			return err
		}
		buf := make([]byte, jobChunk)
		for n := 0; ; n++ {
			k, err := io.ReadFull(upload, buf)
			if k > 0 {
				if _, err := tx.ExecContext(ctx, `INSERT INTO site_job_chunks (job_seq, n, bytes) VALUES (?, ?, ?)`, seq, n, buf[:k]); err != nil {
					return err
				}
			}
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	})
	db.changed(err)
	return j, err
}

// Job returns the job id, with its report if withReport. Errors:
// ENotFound.
func (db *Jobs) Job(ctx context.Context, id string, withReport bool) (site.Job, error) {
	q := `SELECT ` + jobCols
	if withReport {
		q += `, report`
	}
	j, err := jobRow(db.r.QueryRowContext(ctx, q+` FROM site_jobs WHERE id = ?`, id), withReport)
	if site.ErrorCode(err) == site.ENotFound {
		return j, site.Errorf(site.ENotFound, "No such reading: its report is kept for an hour.")
	}
	return j, err
}

// NewestLaunchJob returns the newest launch check of project projectID
// that user userID started, while it is kept; false if none.
// Errors: ENotFound.
func (db *Jobs) NewestLaunchJob(ctx context.Context, userID, projectID int64) (site.Job, bool, error) {
	j, err := jobRow(db.r.QueryRowContext(ctx, `SELECT `+jobCols+` FROM site_jobs
		WHERE project_id = ? AND user_id = ? AND kind = ? ORDER BY seq DESC LIMIT 1`, projectID, userID, site.JobLaunch), false)
	if site.ErrorCode(err) == site.ENotFound {
		return j, false, nil
	}
	return j, err == nil, err
}

// ClaimJob gives the server of this DB the waiting job of the team
// served longest ago (the team whose newest job started first, or that
// has none) among the teams not reading now; the order jobs came breaks
// ties. It returns false if there is none for it. The claimed job is
// reading, and its server must beat (BeatJob) until it ends it.
// Errors: EConflict, ENotFound.
func (db *Jobs) ClaimJob(ctx context.Context) (site.Job, bool, error) {
	var waiting bool
	if err := db.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM site_jobs WHERE state = ?)`, site.JobWaiting).Scan(&waiting); err != nil || !waiting {
		return site.Job{}, false, err // most of the time: nothing to claim, and no write to claim it
	}
	skip := db.skipLocked("j")
	now := db.Now().UTC().Format(jobTime)
	var j site.Job
	var found bool
	err := db.rowTx(ctx, func(tx *sql.Tx) error {
		var err error
		j, err = jobRow(tx.QueryRowContext(ctx, `UPDATE site_jobs SET state = ?, instance = ?, started = ?, beat = ?
			WHERE state = ? AND seq = (SELECT j.seq FROM site_jobs j
				WHERE j.state = ? AND NOT EXISTS (SELECT 1 FROM site_jobs r WHERE r.team_id = j.team_id AND r.state IN (?, ?))
				ORDER BY COALESCE((SELECT max(s.started) FROM site_jobs s WHERE s.team_id = j.team_id), ''), j.seq
				LIMIT 1`+skip+`)
			RETURNING `+jobCols,
			site.JobReading, db.owner, now, now, site.JobWaiting, site.JobWaiting, site.JobReading, site.JobWriting), false)
		found = err == nil
		if site.ErrorCode(err) == site.ENotFound {
			return nil
		}
		return err
	})
	if site.ErrorCode(err) == site.EConflict {
		// Another server gave this team its turn at the same moment: the
		// team reads one site at a time.
		return site.Job{}, false, nil
	}
	if found && err == nil {
		db.jobsChanged.ring()
	}
	return j, found && err == nil, err
}

// BeatJob says the server of this DB still runs job id, now in state,
// with its progress; it returns whether the job was asked to stop.
// Errors: ENotFound (the job is no longer this server's: failed as
// stale, or deleted with its account).
func (db *Jobs) BeatJob(ctx context.Context, id, state string, progress []byte) (cancel bool, err error) {
	var c int
	err = db.rowTx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `UPDATE site_jobs SET beat = ?, state = ?, progress = ?
			WHERE id = ? AND instance = ? AND ended IS NULL RETURNING cancel`,
			db.Now().UTC().Format(jobTime), state, progress, id, db.owner).Scan(&c)
	})
	db.changed(err)
	return c != 0, err
}

// EndJob ends job id of this DB's server in state, with errMsg, its last
// progress and its report; its upload is removed. Past teamBytes of the reports of its
// team or allBytes of all, the oldest others are let go, as
// keepReports says. Errors: ENotFound (no longer this server's).
func (db *Jobs) EndJob(ctx context.Context, id, state, errMsg string, progress, report []byte, teamBytes, allBytes int64) error {
	defer db.jobsChanged.ring() // ended, or no longer this server's: either way its stream looks again
	return db.rowTx(ctx, func(tx *sql.Tx) error {
		var seq int64
		err := tx.QueryRowContext(ctx, `UPDATE site_jobs SET state = ?, error = ?, ended = ?, progress = ?, report = ?, report_bytes = ?, credentials = ''
			WHERE id = ? AND instance = ? AND ended IS NULL RETURNING seq`,
			state, errMsg, db.Now().UTC().Format(jobTime), progress, report, len(report), id, db.owner).Scan(&seq)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_job_chunks WHERE job_seq = ?`, seq); err != nil {
			return err
		}
		return keepReports(ctx, tx, seq, teamBytes, allBytes)
	})
}

// keepReports lets go of the reports of ended jobs, oldest first, but
// not job seq's: a team's while its reports take more than teamBytes,
// and anyone's while all take more than allBytes.
func keepReports(ctx context.Context, tx *sql.Tx, seq, teamBytes, allBytes int64) error {
	type kept struct{ seq, team, bytes int64 }
	ks, err := collect(ctx, tx, func(rows *sql.Rows) (k kept, err error) {
		return k, rows.Scan(&k.seq, &k.team, &k.bytes)
	}, `SELECT seq, team_id, report_bytes FROM site_jobs WHERE report IS NOT NULL ORDER BY ended, seq`)
	if err != nil {
		return err
	}
	var all int64
	team := map[int64]int64{}
	for _, k := range ks {
		all += k.bytes
		team[k.team] += k.bytes
	}
	for _, k := range ks {
		if k.seq == seq || team[k.team] <= teamBytes && all <= allBytes {
			continue
		}
		all -= k.bytes
		team[k.team] -= k.bytes
		if _, err := tx.ExecContext(ctx, `UPDATE site_jobs SET report = NULL, report_bytes = 0, dropped = 1 WHERE seq = ?`, k.seq); err != nil {
			return err
		}
	}
	return nil
}

// CancelJob asks user userID's job id to stop: a waiting job ends
// cancelled at once, a running one when its server next beats. It
// returns the job. Errors: ENotFound.
func (db *Jobs) CancelJob(ctx context.Context, id string, userID int64) (site.Job, error) {
	err := db.rowTx(ctx, func(tx *sql.Tx) error {
		var seq int64
		err := tx.QueryRowContext(ctx, `UPDATE site_jobs SET state = ?, error = ?, ended = ?, credentials = ''
			WHERE id = ? AND user_id = ? AND state = ? RETURNING seq`,
			site.JobCancelled, "Cancelled.", db.Now().UTC().Format(jobTime), id, userID, site.JobWaiting).Scan(&seq)
		if err == nil {
			_, err = tx.ExecContext(ctx, `DELETE FROM site_job_chunks WHERE job_seq = ?`, seq)
			return err
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE site_jobs SET cancel = 1 WHERE id = ? AND user_id = ? AND ended IS NULL`, id, userID)
		return err
	})
	if err != nil {
		return site.Job{}, err
	}
	db.jobsCancelled.ring()
	db.jobsChanged.ring()
	return db.Job(ctx, id, false)
}

// SweepJobs fails the running jobs whose server stopped beating and the
// jobs that waited too long, removes their uploads, and deletes the jobs
// that ended long enough ago, as lim says. It returns how many jobs it
// failed.
// Errors: none of its own; a database error as it is.
func (db *Jobs) SweepJobs(ctx context.Context, lim site.JobLimits) (failed int64, err error) {
	now := db.Now().UTC()
	at := func(d time.Duration) string { return now.Add(-d).Format(jobTime) }
	err = db.rowTx(ctx, func(tx *sql.Tx) error {
		for _, q := range []struct {
			where string
			arg   any
			msg   string
		}{
			{`state IN ('reading', 'writing') AND beat < ?`, at(lim.Stale), lim.StaleMsg},
			{`state = 'waiting' AND created < ?`, at(lim.Wait), lim.WaitMsg},
		} {
			res, err := tx.ExecContext(ctx, `UPDATE site_jobs SET state = ?, error = ?, ended = ?, credentials = '' WHERE ended IS NULL AND `+q.where,
				site.JobFailed, q.msg, now.Format(jobTime), q.arg)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			failed += n
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_job_chunks WHERE job_seq IN (SELECT seq FROM site_jobs WHERE ended IS NOT NULL)`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM site_jobs WHERE ended < ?`, at(lim.Kept))
		return err
	})
	if failed > 0 {
		db.changed(err)
	}
	return failed, err
}

// Changed is closed after this process next creates, claims, beats,
// ends, cancels or fails a live-site job; ask again for the next time.
// A job another server runs changes without it: look again now and
// then. Errors: none.
func (db *Jobs) Changed() <-chan struct{} { return db.jobsChanged.wait() }

// Cancelled is closed after this process next asks a job to stop
// (CancelJob), so that the job, if this process runs it, stops at once;
// another server hears of it at its next beat. Errors: none.
func (db *Jobs) Cancelled() <-chan struct{} { return db.jobsCancelled.wait() }

// changed rings Changed after a write that worked.
func (db *Jobs) changed(err error) {
	if err == nil {
		db.jobsChanged.ring()
	}
}

// JobUpload reads the file kept with job id, a piece at a time.
// Errors: none of its own; a database error as it is.
func (db *Jobs) JobUpload(ctx context.Context, id string) io.Reader {
	return &uploadReader{ctx: ctx, db: db.parts, id: id}
}

type uploadReader struct {
	ctx  context.Context
	db   *Store
	id   string
	n    int
	buf  []byte
	done bool
}

func (u *uploadReader) Read(p []byte) (int, error) {
	for len(u.buf) == 0 {
		if u.done {
			return 0, io.EOF
		}
		err := u.db.r.QueryRowContext(u.ctx, `SELECT c.bytes FROM site_job_chunks c JOIN site_jobs j ON j.seq = c.job_seq
			WHERE j.id = ? AND c.n = ?`, u.id, u.n).Scan(&u.buf)
		if errors.Is(err, sql.ErrNoRows) {
			u.done = true
			continue
		}
		if err != nil {
			return 0, err
		}
		u.n++
	}
	n := copy(p, u.buf)
	u.buf = u.buf[n:]
	return n, nil
}
