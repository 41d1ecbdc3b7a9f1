package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"time"

	"siteplan/site"
)

// Tree tests (site/treetest.go): a study on a version of a plan, taken
// by participants through its link, whose events are appended and never
// changed; results are computed from them (package treetest).

const studyCols = `s.id, s.project_id, v.number, s.name, coalesce(s.root_id, 0), s.all_navigation, s.per_participant, s.random_order, s.no_skip,
	s.intro, s.thanks, s.max_participants, s.speeder_ms, s.created_at, s.expires_at, s.revoked_at`

func scanStudy(row interface{ Scan(...any) error }) (site.Study, error) {
	var s site.Study
	var created string
	var expires, revoked sql.NullString
	err := row.Scan(&s.ID, &s.ProjectID, &s.Version, &s.Name, &s.Root, &s.AllNavigation, &s.PerParticipant, &s.Random, &s.NoSkip,
		&s.Intro, &s.Thanks, &s.MaxParticipants, &s.SpeederMillis, &created, &expires, &revoked)
	s.CreatedAt, _ = time.Parse(timeFormat, created)
	s.ExpiresAt, s.RevokedAt = parseTime(expires), parseTime(revoked)
	return s, err
}

// CreateStudy creates study s on version s.Version of its project (on
// the plan as it is, frozen as a new version named for the study, when
// 0), and returns its participant link's token, which is not kept: only
// its hash is. Errors: EInvalid (s.Validate, s.CheckTree), ENotFound.
func (db *TreeTests) CreateStudy(ctx context.Context, s *site.Study) (string, error) {
	if err := s.Validate(); err != nil {
		return "", err
	}
	if s.Version == 0 {
		v, err := db.parts.History.CreateVersion(ctx, s.ProjectID, "Tree test: "+site.Clip(s.Name, site.MaxVersionName-11))
		if err != nil {
			return "", err
		}
		s.Version = v.Number
	}
	v, t, err := db.studyPlan(ctx, *s)
	if err != nil {
		return "", err
	}
	if err := s.CheckTree(t); err != nil {
		return "", err
	}
	s.CreatedAt = db.Now().UTC().Truncate(time.Millisecond)
	if !s.ExpiresAt.IsZero() && !s.ExpiresAt.After(s.CreatedAt) {
		return "", site.Errorf(site.EInvalid, "The expiry must be in the future.")
	}
	token, hash := newToken()
	err = db.tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO studies (project_id, version_id, name, root_id, all_navigation, per_participant, random_order, no_skip,
			intro, thanks, max_participants, speeder_ms, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			s.ProjectID, v.ID, s.Name, nullID(s.Root), s.AllNavigation, s.PerParticipant, s.Random, s.NoSkip, s.Intro, s.Thanks, s.MaxParticipants,
			s.SpeederMillis, hash, fmtTime(s.CreatedAt), nullTime(s.ExpiresAt)).Scan(&s.ID); err != nil {
			return err
		}
		for i, task := range s.Tasks {
			correct, _ := json.Marshal(task.Correct)
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_tasks (study_id, key, position, text, correct, time_limit, confidence) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				s.ID, task.Key, i, task.Text, string(correct), task.TimeLimit, task.Confidence); err != nil {
				return err
			}
		}
		return nil
	})
	return token, err
}

// Study is study id with its tasks. Errors: ENotFound.
func (db *TreeTests) Study(ctx context.Context, id int64) (site.Study, error) {
	s, err := scanStudy(db.r.QueryRowContext(ctx, `SELECT `+studyCols+` FROM studies s JOIN versions v ON v.id = s.version_id WHERE s.id = ?`, id))
	if err != nil {
		return s, notFound(err, "Tree test %d does not exist.", id)
	}
	s.Tasks, err = db.tasks(ctx, id)
	return s, err
}

// StudyByToken is the study whose participant link has token, with its
// tasks. Errors: ENotFound (no such link).
func (db *TreeTests) StudyByToken(ctx context.Context, token string) (site.Study, error) {
	s, err := scanStudy(db.r.QueryRowContext(ctx, `SELECT `+studyCols+` FROM studies s JOIN versions v ON v.id = s.version_id WHERE s.token_hash = ?`, hashToken(token)))
	if err != nil {
		return s, notFound(err, "This tree test's link is not valid: ask for a new one.")
	}
	s.Tasks, err = db.tasks(ctx, s.ID)
	return s, err
}

// Studies lists a project's studies with their tasks, newest first.
func (db *TreeTests) Studies(ctx context.Context, projectID int64) ([]site.Study, error) {
	list, err := collect(ctx, db.r, func(rows *sql.Rows) (site.Study, error) { return scanStudy(rows) }, `SELECT `+studyCols+` FROM studies s JOIN versions v ON v.id = s.version_id WHERE s.project_id = ? ORDER BY s.id DESC`, projectID)
	if err != nil {
		return nil, err
	}
	tasks, err := db.tasksWhere(ctx, `study_id IN (SELECT id FROM studies WHERE project_id = ?)`, projectID)
	for i := range list {
		list[i].Tasks = tasks[list[i].ID]
	}
	return list, err
}

// tasks are study studyID's tasks, in order.
func (db *TreeTests) tasks(ctx context.Context, studyID int64) ([]site.TreeTask, error) {
	tasks, err := db.tasksWhere(ctx, `study_id = ?`, studyID)
	return tasks[studyID], err
}

// tasksWhere are the tasks of the studies where picks, by study, each
// study's in order.
func (db *TreeTests) tasksWhere(ctx context.Context, where string, arg any) (map[int64][]site.TreeTask, error) {
	type row struct {
		study int64
		task  site.TreeTask
	}
	rows, err := collect(ctx, db.r, func(rows *sql.Rows) (row, error) {
		var r row
		var correct string
		if err := rows.Scan(&r.study, &r.task.Key, &r.task.Text, &correct, &r.task.TimeLimit, &r.task.Confidence); err != nil {
			return r, err
		}
		return r, json.Unmarshal([]byte(correct), &r.task.Correct)
	}, `SELECT study_id, key, text, correct, time_limit, confidence FROM study_tasks WHERE `+where+` ORDER BY study_id, position`, arg)
	out := map[int64][]site.TreeTask{}
	for _, r := range rows {
		out[r.study] = append(out[r.study], r.task)
	}
	return out, err
}

// StudyTree is the tree study s shows: its version's navigation,
// labels only (site.Study.Tree). Errors: ENotFound.
func (db *TreeTests) StudyTree(ctx context.Context, s site.Study) ([]site.TreeNode, error) {
	_, t, err := db.studyPlan(ctx, s)
	if err != nil {
		return nil, err
	}
	return s.Tree(t), nil
}

// StudyRecord is what study s's results are computed from, and the plan
// of its version (whose pages the results name). Errors: ENotFound.
func (db *TreeTests) StudyRecord(ctx context.Context, s site.Study) (site.StudyRecord, *site.Tree, error) {
	var r site.StudyRecord
	_, t, err := db.studyPlan(ctx, s)
	if err != nil {
		return r, nil, err
	}
	r.Nodes = s.Tree(t)
	if r.Participants, err = db.Participants(ctx, s.ID); err != nil {
		return r, nil, err
	}
	r.Events, err = db.Events(ctx, s.ID)
	return r, t, err
}

// studyPlan is the version study s shows and the plan it keeps, whole:
// a study's tree is its version's, whoever asks. Errors: ENotFound.
func (db *TreeTests) studyPlan(ctx context.Context, s site.Study) (site.Version, *site.Tree, error) {
	pr, err := db.parts.Projects.Project(ctx, s.ProjectID)
	if err != nil {
		return site.Version{}, nil, err
	}
	v, t, _, err := db.versionOf(site.WithViewer(ctx, site.Viewer{}), pr, s.Version)
	return v, t, err
}

// SetCorrect makes a task's correct pages pages (marking another page
// correct after the study: the results are computed again from the
// events). Errors: EInvalid (no page, a page the tree does not show),
// ENotFound.
func (db *TreeTests) SetCorrect(ctx context.Context, studyID int64, key string, pages []int64) error {
	s, err := db.Study(ctx, studyID)
	if err != nil {
		return err
	}
	found := false
	for i := range s.Tasks {
		if s.Tasks[i].Key == key {
			s.Tasks[i].Correct, found = pages, true
		}
	}
	if !found {
		return site.Errorf(site.ENotFound, "Tree test %d has no task %q.", studyID, key)
	}
	if err := s.Validate(); err != nil {
		return err
	}
	_, t, err := db.studyPlan(ctx, s)
	if err != nil {
		return err
	}
	if err := s.CheckTree(t); err != nil {
		return err
	}
	correct, _ := json.Marshal(pages)
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE study_tasks SET correct = ? WHERE study_id = ? AND key = ?`, string(correct), studyID, key)
		return err
	})
}

// RevokeStudy closes a study's link: nobody new starts it, and its
// participants can no longer record. Errors: ENotFound.
func (db *TreeTests) RevokeStudy(ctx context.Context, projectID, studyID int64) error {
	return db.studyUpdate(ctx, projectID, studyID, `UPDATE studies SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND project_id = ?`, fmtTime(db.Now()), studyID, projectID)
}

// SetSpeeder sets the threshold under which the results leave a
// participant out as a speeder: ms for their whole study (0: none).
// Errors: EInvalid, ENotFound.
func (db *TreeTests) SetSpeeder(ctx context.Context, projectID, studyID, ms int64) error {
	if ms < 0 || ms > 24*3600*1000 {
		return site.Errorf(site.EInvalid, "A speeder's threshold is 0 (none) to 24 hours.")
	}
	return db.studyUpdate(ctx, projectID, studyID, `UPDATE studies SET speeder_ms = ? WHERE id = ? AND project_id = ?`, ms, studyID, projectID)
}

// NewStudyLink gives study a new participant link and returns its token
// (kept hashed): the old link stops working, the participants who
// started keep their sessions. Errors: ENotFound.
func (db *TreeTests) NewStudyLink(ctx context.Context, projectID, studyID int64) (string, error) {
	token, hash := newToken()
	return token, db.studyUpdate(ctx, projectID, studyID, `UPDATE studies SET token_hash = ? WHERE id = ? AND project_id = ?`, hash, studyID, projectID)
}

// studyUpdate runs one update of a project's study. Errors: ENotFound.
func (db *TreeTests) studyUpdate(ctx context.Context, projectID, studyID int64, query string, args ...any) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "Tree test %d does not exist.", studyID)
		}
		return nil
	})
}

// Join adds a participant to study s with the URL parameters they came
// with and the tasks drawn for them, and returns the secret that
// resumes their session (kept hashed). Errors: EForbidden (the study is
// closed: revoked, expired or full).
func (db *TreeTests) Join(ctx context.Context, s site.Study, params map[string]string, tasks []string) (site.TreeParticipant, string, error) {
	p := site.TreeParticipant{StudyID: s.ID, Params: params, Tasks: tasks, Started: db.Now().UTC().Truncate(time.Millisecond)}
	secret, hash := newToken()
	pj, _ := json.Marshal(params)
	tj, _ := json.Marshal(tasks)
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var joined int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM study_participants WHERE study_id = ?`, s.ID).Scan(&joined); err != nil {
			return err
		}
		if !s.Open(db.Now(), joined) {
			return site.Errorf(site.EForbidden, "This tree test is closed: thank you for your time.")
		}
		return tx.QueryRowContext(ctx, `INSERT INTO study_participants (study_id, secret_hash, params, tasks, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			s.ID, hash, string(pj), string(tj), fmtTime(p.Started)).Scan(&p.ID)
	})
	return p, secret, err
}

const participantCols = `id, study_id, params, tasks, created_at`

func scanParticipant(row interface{ Scan(...any) error }) (site.TreeParticipant, error) {
	var p site.TreeParticipant
	var params, tasks, started string
	if err := row.Scan(&p.ID, &p.StudyID, &params, &tasks, &started); err != nil {
		return p, err
	}
	p.Started, _ = time.Parse(timeFormat, started)
	if err := json.Unmarshal([]byte(params), &p.Params); err != nil {
		return p, err
	}
	return p, json.Unmarshal([]byte(tasks), &p.Tasks)
}

// Participant is the participant whose session secret is secret.
// Errors: ENotFound.
func (db *TreeTests) Participant(ctx context.Context, secret string) (site.TreeParticipant, error) {
	p, err := scanParticipant(db.r.QueryRowContext(ctx, `SELECT `+participantCols+` FROM study_participants WHERE secret_hash = ?`, hashToken(secret)))
	return p, notFound(err, "Your session of this tree test is not known: open the link again.")
}

// Participants lists a study's participants, in the order they joined.
func (db *TreeTests) Participants(ctx context.Context, studyID int64) ([]site.TreeParticipant, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.TreeParticipant, error) { return scanParticipant(rows) },
		`SELECT `+participantCols+` FROM study_participants WHERE study_id = ? ORDER BY id`, studyID)
}

// ParticipantEvents are one participant's events, in the order recorded.
func (db *TreeTests) ParticipantEvents(ctx context.Context, participantID int64) ([]site.TreeEvent, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.TreeEvent, error) {
		var e site.TreeEvent
		return e, rows.Scan(&e.Participant, &e.Task, &e.Kind, &e.PageID, &e.At)
	}, `SELECT participant_id, task, kind, page_id, at_ms FROM study_events WHERE participant_id = ? ORDER BY id`, participantID)
}

// MaxStudyEvents bounds one participant's events, so that a link cannot
// fill the disk.
const MaxStudyEvents = 5000

// Record appends a participant's events, in order. Errors: EInvalid (an
// event kind it does not know, a task not drawn for them), EForbidden
// (the study revoked), ETooLarge (past MaxStudyEvents).
func (db *TreeTests) Record(ctx context.Context, p site.TreeParticipant, events []site.TreeEvent) error {
	for _, e := range events {
		switch {
		case !slices.Contains(site.TreeEventKinds, e.Kind):
			return site.Errorf(site.EInvalid, "%q is no event of a tree test.", e.Kind)
		case !slices.Contains(p.Tasks, e.Task):
			return site.Errorf(site.EInvalid, "Task %q is not one of yours.", e.Task)
		case e.At < 0:
			return site.Errorf(site.EInvalid, "An event's time is milliseconds since the study began, not %d.", e.At)
		}
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		var n int
		var revoked sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM study_events WHERE participant_id = ?), revoked_at FROM studies WHERE id = ?`,
			p.ID, p.StudyID).Scan(&n, &revoked); err != nil {
			return notFound(err, "This tree test no longer exists.")
		}
		if revoked.Valid {
			return site.Errorf(site.EForbidden, "This tree test is closed: thank you for your time.")
		}
		if n+len(events) > MaxStudyEvents {
			return site.Errorf(site.ETooLarge, "This session has recorded %d events, the most one may.", MaxStudyEvents)
		}
		for _, e := range events {
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_events (study_id, participant_id, task, kind, page_id, at_ms) VALUES (?, ?, ?, ?, ?, ?)`,
				p.StudyID, p.ID, e.Task, e.Kind, e.PageID, e.At); err != nil {
				return err
			}
		}
		return nil
	})
}

// Events are a study's events, in the order they were recorded.
func (db *TreeTests) Events(ctx context.Context, studyID int64) ([]site.TreeEvent, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.TreeEvent, error) {
		var e site.TreeEvent
		return e, rows.Scan(&e.Participant, &e.Task, &e.Kind, &e.PageID, &e.At)
	}, `SELECT participant_id, task, kind, page_id, at_ms FROM study_events WHERE study_id = ? ORDER BY id`, studyID)
}
