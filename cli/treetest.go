package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	"siteplan/site"
	"siteplan/store"
	"siteplan/treetest"
)

// Tree tests on the command line (docs/cli.md): a study created from a
// file of tasks, its results, a correct page marked afterwards, and its
// files. Pages are named by their path in the study's version.

// taskFile is one task of a --tasks file.
type taskFile struct {
	Text       string   `json:"text"`
	Correct    []string `json:"correct"`
	TimeLimit  int      `json:"time_limit"`
	Confidence bool     `json:"confidence"`
}

// treetestCreateCmd creates a study on a version of a plan (the plan as
// it is, frozen as a version, without --version) and prints its id and
// its participant link's path.
func treetestCreateCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	version := fs.Int("version", 0, "the version whose tree the study shows (0: the plan as it is, frozen as a new version)")
	tasksFile := fs.String("tasks", "", `the tasks, a JSON list: [{"text": "...", "correct": ["/path/of/page", ...]}]`)
	name := fs.String("name", "Tree test", "the study's name")
	all := fs.Bool("all-navigation", false, "show the utility and footer navigation as top-level items")
	perParticipant := fs.Int("tasks-each", 0, "tasks each participant gets, drawn at random (0: all)")
	random := fs.Bool("random", false, "show the tasks in random order")
	check = func() error {
		if *tasksFile == "" {
			return fmt.Errorf("treetest create: --tasks FILE.json is required")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		b, err := os.ReadFile(*tasksFile)
		if err != nil {
			return fmt.Errorf("treetest create: %w", err)
		}
		var tasks []taskFile
		if err := json.Unmarshal(b, &tasks); err != nil {
			return fmt.Errorf("treetest create: %s is not a JSON list of tasks: %v", *tasksFile, err)
		}
		s := site.Study{ProjectID: id, Version: *version, Name: *name, AllNavigation: *all, PerParticipant: *perParticipant, Random: *random}
		t, err := planAt(ctx, db, id, *version)
		if err != nil {
			return fmt.Errorf("treetest create: %w", err)
		}
		byPath, _ := treetest.Paths(t)
		for i, tf := range tasks {
			task := site.TreeTask{Text: tf.Text, TimeLimit: tf.TimeLimit, Confidence: tf.Confidence}
			for _, p := range tf.Correct {
				pid, ok := byPath[treetest.CleanPath(p)]
				if !ok {
					return fmt.Errorf("treetest create: task %d: %q is no page's path in the plan; name a page by its path, such as /products/pricing", i+1, p)
				}
				task.Correct = append(task.Correct, pid)
			}
			s.Tasks = append(s.Tasks, task)
		}
		token, err := db.TreeTests.CreateStudy(ctx, &s)
		if err != nil {
			return fmt.Errorf("treetest create: %w", err)
		}
		_, err = fmt.Fprintf(stdout, "%d\n/t/%s\n", s.ID, token)
		return err
	}
}

// planAt is project id's plan as version n keeps it (0: as it is).
func planAt(ctx context.Context, db *store.Store, id int64, n int) (*site.Tree, error) {
	_, t, _, err := db.History.PlanAt(ctx, id, n)
	return t, err
}

// studyRun does a verb on study s: what its results are computed from
// and its version's plan t, read once.
type studyRun func(ctx context.Context, db *store.Store, s site.Study, rec site.StudyRecord, t *site.Tree, stdout io.Writer) error

// onStudy is a verb on one study (--study S, as create printed it).
func onStudy(setup func(fs *flag.FlagSet) (check func() error, run studyRun)) verb {
	return func(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
		study := fs.String("study", "", "the study's id, as treetest create printed it")
		check, run := setup(fs)
		if err := parse(fs, args); err != nil {
			return err
		}
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
		sid, err := strconv.ParseInt(*study, 10, 64)
		if err != nil || sid <= 0 {
			return fmt.Errorf("%s: --study S is required (a number, as treetest create printed it)", fs.Name())
		}
		db, err := openDB(fs)
		if err != nil {
			return fmt.Errorf("%s: %w", fs.Name(), err)
		}
		defer db.Close()
		ctx := context.Background()
		s, err := db.TreeTests.Study(ctx, sid)
		if err != nil {
			return fmt.Errorf("%s: %w", fs.Name(), err)
		}
		rec, t, err := db.TreeTests.StudyRecord(ctx, s)
		if err != nil {
			return fmt.Errorf("%s: %w", fs.Name(), err)
		}
		return run(ctx, db, s, rec, t, stdout)
	}
}

// treetestResultsCmd prints a study's results.
func treetestResultsCmd(fs *flag.FlagSet) (check func() error, run studyRun) {
	asJSON := fs.Bool("json", false, "print the results as one JSON object")
	segment := fs.String("segment", "", "only the participants whose link had these parameters (segment=clients)")
	return nil, func(ctx context.Context, db *store.Store, s site.Study, rec site.StudyRecord, t *site.Tree, stdout io.Writer) error {
		opt := treetest.Options{MinMillis: s.SpeederMillis}
		if *segment != "" {
			q, err := url.ParseQuery(*segment)
			if err != nil {
				return fmt.Errorf("treetest results: --segment is key=value, not %q", *segment)
			}
			opt.Segment = map[string]string{}
			for k := range q {
				opt.Segment[k] = q.Get(k)
			}
		}
		res, _ := treetest.Compute(s, rec, opt)
		_, name := treetest.Paths(t)
		if *asJSON {
			return treetest.WriteResultsJSON(stdout, res, name)
		}
		fmt.Fprintf(stdout, "%s, %s counted\n", s.Name, site.Counted(res.Participants, "participant", "participants"))
		for _, tr := range res.Tasks {
			fmt.Fprintf(stdout, "%s. %s\n   success %d of %d (%.0f%%, 95%% %.0f–%.0f%%), direct %d, directness %.0f%%, median %.1f s\n",
				tr.Key, tr.Text, tr.Success.X, tr.N, 100*tr.Success.P, 100*tr.Success.Low, 100*tr.Success.High,
				tr.DirectSuccess, 100*tr.Directness.P, float64(tr.TimeMedian)/1000)
		}
		return nil
	}
}

// treetestCorrectCmd marks another page correct for a task afterwards.
func treetestCorrectCmd(fs *flag.FlagSet) (check func() error, run studyRun) {
	task := fs.String("task", "", "the task's key (its number, as results print it)")
	add := fs.String("add", "", "the path of the page to mark correct, such as /products/pricing")
	check = func() error {
		if *task == "" || *add == "" {
			return fmt.Errorf("treetest correct: --task K and --add PATH are required")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, s site.Study, rec site.StudyRecord, t *site.Tree, stdout io.Writer) error {
		byPath, _ := treetest.Paths(t)
		pid, ok := byPath[treetest.CleanPath(*add)]
		if !ok {
			return fmt.Errorf("treetest correct: %q is no page's path in version %d", *add, s.Version)
		}
		for _, tk := range s.Tasks {
			if tk.Key == *task {
				if err := db.TreeTests.SetCorrect(ctx, s.ID, tk.Key, append(tk.Correct, pid)); err != nil {
					return fmt.Errorf("treetest correct: %w", err)
				}
				return nil
			}
		}
		return fmt.Errorf("treetest correct: study %d has no task %q", s.ID, *task)
	}
}

// treetestExportCmd writes a study's files: events.csv, outcomes.csv,
// results.json and definitions.csv.
func treetestExportCmd(fs *flag.FlagSet) (check func() error, run studyRun) {
	out := fs.String("out", "", "the directory to write into")
	check = func() error {
		if *out == "" {
			return fmt.Errorf("treetest export: --out DIR is required")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, s site.Study, rec site.StudyRecord, t *site.Tree, stdout io.Writer) error {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("treetest export: %w", err)
		}
		_, name := treetest.Paths(t)
		res, attempts := treetest.Compute(s, rec, treetest.Options{MinMillis: s.SpeederMillis})
		files := []struct {
			name  string
			write func(io.Writer) error
		}{
			{"events.csv", func(w io.Writer) error { return treetest.WriteEvents(w, rec.Participants, rec.Events, rec.Nodes, name) }},
			{"outcomes.csv", func(w io.Writer) error { return treetest.WriteOutcomes(w, s.Tasks, attempts, name) }},
			{"results.json", func(w io.Writer) error { return treetest.WriteResultsJSON(w, res, name) }},
			{"definitions.csv", treetest.WriteDefinitions},
		}
		for _, f := range files {
			if err := writeFileWhole(filepath.Join(*out, f.name), f.write); err != nil {
				return fmt.Errorf("treetest export: %w", err)
			}
			fmt.Fprintln(stdout, filepath.Join(*out, f.name))
		}
		return nil
	}
}
