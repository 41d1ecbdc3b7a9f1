package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"siteplan/site"
	"siteplan/store"
	"siteplan/treetest"
)

// The tree-test mode (-treetest N): N participants take a study of the
// 2,021-page plan through its link at once, over real HTTP on loopback,
// as phones and laptops would: each opens the link, starts, and in each
// of its ten tasks opens a section, a topic and a page and chooses it
// (or, one time in five, skips), pausing -think on average between
// presses. It prints the latency of each kind of press (every press is
// an event the server records before it answers), and then how long the
// results of the events take to compute. They arrive within the first
// ten seconds, as people following a link sent to them do not arrive in
// the same millisecond.
//
//	go run ./cmd/loadtest -treetest 500 [-think 1s] [-postgres]

// participantItem finds a tree item's button on the participant's page:
// its page id.
var participantItem = regexp.MustCompile(`name="open" value="(\d+)"`)

// treeTestLoad runs the tree-test mode with n participants.
func treeTestLoad(n int, think time.Duration, postgres bool) error {
	var db *store.Store
	var tree *site.Tree
	var pid int64
	var done func()
	var err error
	if postgres {
		db, _, pid, tree, done, err = openPostgresPlan()
	} else {
		db, pid, tree, done, err = openPlan()
	}
	if err != nil {
		return err
	}
	defer done()
	ctx := context.Background()
	st := site.Study{ProjectID: pid, Name: "Load", Tasks: loadTasks(tree)}
	token, err := db.TreeTests.CreateStudy(ctx, &st)
	if err != nil {
		return err
	}
	logs := &serverLog{}
	base, stop, err := serve(db, logs)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("a study of %d tasks on a plan of %d pages; %d participants at once, %s between presses on average...\n",
		len(st.Tasks), len(tree.Pages()), n, think)
	stats := newStats()
	var ended atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := range n {
		wg.Go(func() {
			p := &participant{hc: newClient(30 * time.Second), base: base, link: "/t/" + token, st: stats, think: think,
				rng: rand.New(rand.NewPCG(uint64(i), 7))}
			if p.take() {
				ended.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(t0)
	report(stats, n, elapsed, 0, logs)
	fmt.Printf("participants who finished: %d of %d\n", ended.Load(), n)
	// The results of what they did, computed as the results page does.
	rec, _, err := db.TreeTests.StudyRecord(ctx, st)
	if err != nil {
		return err
	}
	c0 := time.Now()
	res, _ := treetest.Compute(st, rec, treetest.Options{})
	fmt.Printf("results of %d participants' %d events: computed in %s (success of task 1: %d of %d)\n",
		len(rec.Participants), len(rec.Events), time.Since(c0).Round(time.Millisecond), res.Tasks[0].Success.X, res.Tasks[0].N)
	return nil
}

// loadTasks are ten tasks on the plan, each's correct page a page of
// one of its topics.
func loadTasks(tree *site.Tree) []site.TreeTask {
	var pages []int64
	tree.Walk(func(p *site.Page, depth int) bool {
		if depth == 4 { // Home 1, sections 2, topics 3
			pages = append(pages, p.ID)
		}
		return true
	})
	var tasks []site.TreeTask
	for i := range 10 {
		tasks = append(tasks, site.TreeTask{Text: fmt.Sprintf("Where would you find thing %d?", i+1), Correct: []int64{pages[i*len(pages)/10]}})
	}
	return tasks
}

// participant is one simulated person taking the study.
type participant struct {
	hc         *http.Client
	base, link string
	csrf       string
	st         *stats
	think      time.Duration
	rng        *rand.Rand
}

// take arrives within the first ten seconds, opens the link, starts
// and does every task; it reports whether the thank-you page came.
func (p *participant) take() bool {
	time.Sleep(time.Duration(p.rng.Int64N(int64(10 * time.Second))))
	page, ok := p.do("open the link", http.MethodGet, p.link+"?segment=load", nil, false)
	if !ok {
		return false
	}
	if m := csrfRE.FindSubmatch(page); m != nil {
		p.csrf = string(m[1])
	}
	if page, ok = p.do("start", http.MethodPost, p.link+"/start?segment=load", url.Values{}, false); !ok {
		return false
	}
	for range 20 { // ten tasks, with room for a misstep
		if thanked.Match(page) {
			return true
		}
		p.pause()
		if p.rng.IntN(5) == 0 {
			if page, ok = p.do("skip", http.MethodPost, p.link+"/step", url.Values{"skip": {"1"}}, true); !ok {
				return false
			}
			continue
		}
		var last string
		for range 3 { // a section, a topic, a page: each opened shows its children after the items before
			items := participantItem.FindAllSubmatch(page, -1)
			var fresh [][]byte
			for _, m := range items {
				if string(m[1]) != last {
					fresh = append(fresh, m[1])
				}
			}
			if len(fresh) == 0 {
				break
			}
			last = string(fresh[p.rng.IntN(len(fresh))])
			p.pause()
			if page, ok = p.do("open", http.MethodPost, p.link+"/step", url.Values{"open": {last}}, true); !ok {
				return false
			}
		}
		p.pause()
		if page, ok = p.do("choose", http.MethodPost, p.link+"/step", url.Values{"choose": {last}}, true); !ok {
			return false
		}
	}
	return thanked.Match(page)
}

// thanked finds the end page's heading.
var thanked = regexp.MustCompile(`<h1[^>]*>Thank you</h1>`)

// do sends one press and records its time under kind.
func (p *participant) do(kind, method, path string, form url.Values, hx bool) ([]byte, bool) {
	u := &user{base: p.base, hc: p.hc, csrf: p.csrf, st: p.st}
	return u.do("treetest: "+kind, method, path, form, hx)
}

func (p *participant) pause() {
	if p.think > 0 {
		time.Sleep(time.Duration(p.rng.Int64N(int64(2 * p.think))))
	}
}
