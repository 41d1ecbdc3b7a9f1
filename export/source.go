package export

import (
	"sync"

	"siteplan/site"
)

// TreeSource reads a plan held in memory.
func TreeSource(t *site.Tree) site.PlanReader { return treeSource{t} }

type treeSource struct{ t *site.Tree }

func (s treeSource) Project() site.Project { return s.t.Project }

// Tree is the plan whole (TreeReader).
func (s treeSource) Tree() (*site.Tree, error) { return s.t, nil }

// TreeReader is a plan source that can give the plan whole: what the
// export of a localized plan reads (every page's variants at once).
type TreeReader interface {
	Tree() (*site.Tree, error)
}

func (s treeSource) Walk(root int64, fn func(p *site.Page, path string, depth int) error) error {
	t, pr := s.t, s.t.Project
	var walk func(id int64, parent string, depth int) error
	walk = func(id int64, parent string, depth int) error {
		for _, c := range t.Children(id) {
			path := pr.ChildPath(c, parent)
			if err := fn(c, path, depth); err != nil {
				return err
			}
			if c.ChildCount > 0 {
				if err := walk(c.ID, path, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if root == 0 {
		return walk(0, pr.RootPath(), 1)
	}
	p := t.Page(root)
	if p == nil {
		return site.Errorf(site.ENotFound, "Section page %d does not exist in this project.", root)
	}
	path := t.Path(root)
	if err := fn(p, path, 1); err != nil {
		return err
	}
	return walk(root, path, 2)
}

// visit is one page of a walk, copied so that it can be handed on.
type visit struct {
	page  site.Page
	path  string
	depth int
}

// batch is a run of visits a reader hands to the export at once.
type batch struct {
	visits []visit
	err    error // the walk's error, in the last batch
}

const batchSize = 512

var batches = sync.Pool{New: func() any { return &batch{visits: make([]visit, 0, batchSize)} }}

// newBatch is an empty batch, from the pool.
func newBatch() *batch {
	b := batches.Get().(*batch)
	b.visits, b.err = b.visits[:0], nil
	return b
}

// readAhead walks src on a goroutine of its own and hands its pages on in
// batches, so that reading the plan (from a database, the larger part of
// an export from the store) and writing the files run on two cores. Only
// a few batches are ever in flight. Stop it by draining the channel; a
// call of stop ends the walk early.
func readAhead(src site.PlanReader, root int64) (<-chan *batch, func()) {
	out := make(chan *batch, 4)
	quit := make(chan struct{})
	go func() {
		defer close(out)
		b := newBatch()
		err := src.Walk(root, func(p *site.Page, path string, depth int) error {
			b.visits = append(b.visits, visit{*p, path, depth})
			if len(b.visits) == batchSize {
				select {
				case out <- b:
				case <-quit:
					return errStopped
				}
				b = newBatch()
			}
			return nil
		})
		if err == errStopped {
			return
		}
		b.err = err
		select {
		case out <- b:
		case <-quit:
		}
	}()
	var once sync.Once
	return out, func() {
		once.Do(func() { close(quit) })
		for range out { // let the walk end
		}
	}
}

// errStopped ends a walk the export no longer reads.
var errStopped = site.Errorf(site.EInternal, "export stopped")
