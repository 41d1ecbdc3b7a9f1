package site

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A proposal is a named set of changes to a plan that an agent, an
// import or a person offers and the team accepts (whole, or a branch at
// a time: each acceptance one change of the plan, undoable) or rejects.
// Nothing in it touches the plan until then.

// Proposal is one proposal of a plan, numbered from 1 in each project.
type Proposal struct {
	ID        int64     `json:"-"`
	ProjectID int64     `json:"project_id"`
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	Summary   string    `json:"summary,omitempty"`
	Source    string    `json:"source"` // ProposalSources
	Author    string    `json:"author"`
	Version   int       `json:"base_version,omitempty"` // the version it was made on; 0: the plan as it was
	State     string    `json:"state"`                  // ProposalOpen, ProposalAccepted, ProposalRejected
	Accepted  []string  `json:"accepted_branches,omitempty"`
	Pages     int       `json:"pages"` // the pages its open changes touch
	Links     int       `json:"links"` // the cross-links they add, remove or relabel
	CreatedAt time.Time `json:"created_at"`
	DecidedAt time.Time `json:"decided_at,omitzero"`
	DecidedBy string    `json:"decided_by,omitempty"`
	// Comments are the team's conversation about it, oldest first (read
	// with one proposal, not with a list).
	Comments []ProposalComment `json:"comments,omitempty"`
}

// Proposal states.
const (
	ProposalOpen     = "open"
	ProposalAccepted = "accepted"
	ProposalRejected = "rejected"
)

// Where a proposal came from.
const (
	SourceEditor  = "editor"  // a person, in the editor
	SourceAPI     = "api"     // a program, through /api/v1
	SourceMCP     = "mcp"     // an agent, through MCP
	SourceImport  = "import"  // siteplan import --propose
	SourceMermaid = "mermaid" // a Mermaid diagram imported
)

// Open reports whether the proposal can still be accepted or rejected.
func (p *Proposal) Open() bool { return p.State == ProposalOpen }

// Label names the proposal for people: "Proposal 3 “Shop restructure”".
func (p *Proposal) Label() string {
	return "Proposal " + strconv.Itoa(p.Number) + " “" + p.Title + "”"
}

// ProposalComment is one comment on a proposal.
type ProposalComment struct {
	ID     int64     `json:"id"`
	Author string    `json:"author"`
	Body   string    `json:"body"`
	At     time.Time `json:"created_at"`
}

// ProposalDraft is a proposal to make: the plan as it would be, as a
// document whose page keys "p12" are the plan's pages (as NewDocument
// writes them) and whose other keys are pages to add.
type ProposalDraft struct {
	Title   string
	Summary string
	Source  string
	Version int // the version to propose on; 0: the plan as it is
	Doc     *Document
	// Settings proposes the document's project settings too; else the
	// plan's are kept (a Mermaid diagram or a list of operations has
	// none).
	Settings bool
}

// Bounds of a proposal.
const (
	MaxProposalTitle   = 200
	MaxProposalSummary = 4000
	MaxProposalComment = 4000
	MaxProposalOps     = 10_000
	MaxOpenProposals   = 100 // a plan's open proposals at once
)

// ValidateProposal checks a draft's title and summary, trimmed.
// Errors: EInvalid.
func ValidateProposal(d *ProposalDraft) error {
	d.Title, d.Summary = strings.TrimSpace(d.Title), strings.TrimSpace(d.Summary)
	if msg := TextProblem("Title", d.Title, MaxProposalTitle, false); msg != "" {
		return Errorf(EInvalid, "%s", msg)
	}
	if d.Title == "" {
		return Errorf(EInvalid, "Give the proposal a title that says what it changes (“Merge the shop sections”).")
	}
	if msg := TextProblem("Summary", d.Summary, MaxProposalSummary, true); msg != "" {
		return Errorf(EInvalid, "%s", msg)
	}
	return nil
}

// ValidateProposalComment checks a comment's body, trimmed. Errors:
// EInvalid.
func ValidateProposalComment(body string) (string, error) {
	body = strings.TrimSpace(body)
	if body == "" {
		return "", Errorf(EInvalid, "Write something to comment.")
	}
	if msg := TextProblem("Comment", body, MaxProposalComment, true); msg != "" {
		return "", Errorf(EInvalid, "%s", msg)
	}
	return body, nil
}

// ProposalOp is one operation of a proposal written as a list of edits
// (the MCP tool's and the API's form): Op is add, update, move, delete,
// link or unlink. Pages are named by the plan's ids ("#12", "12" or
// "p12") or by the Key an earlier add gave a new page.
type ProposalOp struct {
	Op   string `json:"op"`
	Page string `json:"page,omitempty"` // update, move, delete: the page
	Key  string `json:"key,omitempty"`  // add: the new page's name for later operations
	// add, move: the new parent ("" or absent: the top level), where
	// among its children (from 0; absent: last) and, at the top level,
	// the placement (main, utility or footer).
	Parent    *string `json:"parent,omitempty"`
	Position  *int    `json:"position,omitempty"`
	Placement string  `json:"placement,omitempty"`
	// add, update: the page's fields (absent: as they are, or the
	// default for a new page).
	Title  *string `json:"title,omitempty"`
	Slug   *string `json:"slug,omitempty"`
	Kind   *string `json:"kind,omitempty"`
	Type   *string `json:"type,omitempty"`
	Status *string `json:"status,omitempty"`
	Notes  *string `json:"notes,omitempty"`
	// link, unlink: the ends, and the link's label.
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Label string `json:"label,omitempty"`
}

// docIndex finds a document's pages by key, with the list each is in.
type docIndex struct {
	d      *Document
	byKey  map[string]*DocPage
	parent map[*DocPage]*DocPage // nil: a root
	made   int
}

func newDocIndex(d *Document) *docIndex {
	x := &docIndex{d: d, byKey: map[string]*DocPage{}, parent: map[*DocPage]*DocPage{}}
	var walk func(parent *DocPage, list []*DocPage)
	walk = func(parent *DocPage, list []*DocPage) {
		for _, p := range list {
			if p.Key != "" {
				x.byKey[p.Key] = p
			}
			x.parent[p] = parent
			walk(p, p.Children)
		}
	}
	walk(nil, d.Pages)
	return x
}

// opKey is the key a reference names: "#12", "12" and "p12" are page 12.
func opKey(ref string) string {
	ref = strings.TrimSpace(ref)
	if n, err := strconv.ParseInt(strings.TrimPrefix(ref, "#"), 10, 64); err == nil && n > 0 {
		return pageKey(n)
	}
	return ref
}

func (x *docIndex) find(ref string) (*DocPage, error) {
	if p := x.byKey[opKey(ref)]; p != nil {
		return p, nil
	}
	if ref == "" {
		return nil, fmt.Errorf("say which page")
	}
	return nil, fmt.Errorf("the plan has no page %q", clip(ref))
}

func (x *docIndex) list(parent *DocPage) *[]*DocPage {
	if parent == nil {
		return &x.d.Pages
	}
	return &parent.Children
}

func (x *docIndex) remove(p *DocPage) {
	l := x.list(x.parent[p])
	if i := slices.Index(*l, p); i >= 0 {
		*l = slices.Delete(*l, i, i+1)
	}
}

// place puts p under parent (nil: the top level) at position (nil: last).
func (x *docIndex) place(p, parent *DocPage, position *int, placement string) {
	l := x.list(parent)
	at := len(*l)
	if position != nil {
		at = min(max(*position, 0), len(*l))
	}
	*l = slices.Insert(*l, at, p)
	x.parent[p] = parent
	p.Placement = ""
	if parent == nil {
		p.Placement = placement
	}
}

// ApplyOps edits the document by ops, in order: the plan as a proposal
// written as operations would have it. Errors: EInvalid, naming the
// operation.
func (d *Document) ApplyOps(ops []ProposalOp) error {
	if len(ops) == 0 {
		return Errorf(EInvalid, "The proposal has no operations: add, update, move or delete pages, or link them.")
	}
	if len(ops) > MaxProposalOps {
		return Errorf(EInvalid, "The proposal has more than %d operations; propose it in parts.", MaxProposalOps)
	}
	x := newDocIndex(d)
	for i := range ops {
		if err := x.apply(&ops[i]); err != nil {
			return Errorf(EInvalid, "operations[%d] (%s): %s.", i, clip(ops[i].Op), err)
		}
	}
	return nil
}

func (x *docIndex) apply(op *ProposalOp) error {
	switch op.Op {
	case "add":
		return x.add(op)
	case "update":
		p, err := x.find(op.Page)
		if err != nil {
			return err
		}
		setFields(p, op)
		return nil
	case "move":
		return x.move(op)
	case "delete":
		p, err := x.find(op.Page)
		if err != nil {
			return err
		}
		x.remove(p)
		x.forget(p)
		return nil
	case "link", "unlink":
		return x.link(op)
	}
	return fmt.Errorf("op is add, update, move, delete, link or unlink")
}

// parentOf reads an operation's parent: nil for the top level.
func (x *docIndex) parentOf(op *ProposalOp) (*DocPage, error) {
	if op.Parent == nil || strings.TrimSpace(*op.Parent) == "" {
		return nil, nil
	}
	parent, err := x.find(*op.Parent)
	if err != nil {
		return nil, fmt.Errorf("parent: %w", err)
	}
	return parent, nil
}

func (x *docIndex) add(op *ProposalOp) error {
	if op.Title == nil || strings.TrimSpace(*op.Title) == "" {
		return fmt.Errorf("a new page needs a title")
	}
	key := op.Key
	if key == "" {
		for key == "" || x.byKey[key] != nil {
			x.made++
			key = "new-" + strconv.Itoa(x.made)
		}
	}
	if x.byKey[opKey(key)] != nil || PageKeyID(key) != 0 {
		return fmt.Errorf("key %q names a page already; give the new page a key of its own (“shop”)", clip(key))
	}
	parent, err := x.parentOf(op)
	if err != nil {
		return err
	}
	p := &DocPage{Key: key}
	setFields(p, op)
	x.byKey[key] = p
	x.place(p, parent, op.Position, op.Placement)
	return nil
}

func (x *docIndex) move(op *ProposalOp) error {
	p, err := x.find(op.Page)
	if err != nil {
		return err
	}
	parent, err := x.parentOf(op)
	if err != nil {
		return err
	}
	for q := parent; q != nil; q = x.parent[q] {
		if q == p {
			return fmt.Errorf("a page cannot move below itself")
		}
	}
	x.remove(p)
	x.place(p, parent, op.Position, op.Placement)
	return nil
}

// forget drops a deleted page and its branch from the index, with the
// cross-links to and from them.
func (x *docIndex) forget(p *DocPage) {
	gone := map[string]bool{}
	var walk func(q *DocPage)
	walk = func(q *DocPage) {
		if q.Key != "" {
			gone[q.Key] = true
			delete(x.byKey, q.Key)
		}
		for _, c := range q.Children {
			walk(c)
		}
	}
	walk(p)
	x.d.Links = slices.DeleteFunc(x.d.Links, func(l DocLink) bool { return gone[l.From] || gone[l.To] })
	if gone[x.d.Project.XDefault] {
		x.d.Project.XDefault = ""
	}
}

func (x *docIndex) link(op *ProposalOp) error {
	from, err := x.find(op.From)
	if err != nil {
		return fmt.Errorf("from: %w", err)
	}
	to, err := x.find(op.To)
	if err != nil {
		return fmt.Errorf("to: %w", err)
	}
	i := slices.IndexFunc(x.d.Links, func(l DocLink) bool { return l.From == from.Key && l.To == to.Key })
	switch {
	case op.Op == "unlink" && i < 0:
		return fmt.Errorf("“%s” does not link to “%s”", clip(from.Title), clip(to.Title))
	case op.Op == "unlink":
		x.d.Links = slices.Delete(x.d.Links, i, i+1)
	case i >= 0:
		x.d.Links[i].Label = op.Label
	default:
		x.d.Links = append(x.d.Links, DocLink{From: from.Key, To: to.Key, Label: op.Label})
	}
	return nil
}

// setFields gives p the fields an add or update sets.
func setFields(p *DocPage, op *ProposalOp) {
	if op.Title != nil {
		p.Title = strings.TrimSpace(*op.Title) // a derived slug follows it (the store keeps one whose title stays)
	}
	if op.Slug != nil {
		s := strings.Trim(strings.TrimSpace(*op.Slug), "/")
		p.Slug = &s
	}
	for _, f := range []struct {
		dst *string
		src *string
	}{{&p.Kind, op.Kind}, {&p.Type, op.Type}, {&p.Status, op.Status}, {&p.Notes, op.Notes}} {
		if f.src != nil {
			*f.dst = strings.TrimSpace(*f.src)
		}
	}
}

// ProposalPlans are the plan now and as accepting the rest of a
// proposal would make it (the pages it adds with negative ids).
type ProposalPlans struct {
	Now, Proposed           *Tree
	NowLinks, ProposedLinks []Link
}

// Comparison is what the proposal changes, page by page.
func (pp *ProposalPlans) Comparison() *Comparison {
	return Compare(pp.Now, pp.Proposed, pp.NowLinks, pp.ProposedLinks)
}

// ProposalBranch is a part of a proposal that can be accepted alone: a
// section of the plan with the changes in it.
type ProposalBranch struct {
	ID      int64  `json:"page"` // the section's page (negative: one the proposal adds)
	Title   string `json:"title"`
	Changes int    `json:"changes"` // pages changed in it
}

// Section is the section page p is in: its top-level page, or, below a
// home page at the top level, the home page's child.
func (t *Tree) Section(id int64) *Page {
	var trail []*Page
	for p := t.Page(id); p != nil && len(trail) <= MaxDepth; p = t.Page(p.ParentID) {
		trail = append(trail, p)
	}
	if len(trail) == 0 {
		return nil
	}
	root := trail[len(trail)-1]
	if root.IsHome() && len(trail) > 1 {
		return trail[len(trail)-2]
	}
	return root
}

// ProposalBranches are the sections of union (the plan with the pages a
// proposal removes put back) that hold its marked pages, in outline
// order.
func ProposalBranches(union *Tree, marks map[int64]string) []ProposalBranch {
	var out []ProposalBranch
	at := map[int64]int{}
	union.Walk(func(p *Page, _ int) bool {
		if marks[p.ID] == "" {
			return true
		}
		s := union.Section(p.ID)
		i, ok := at[s.ID]
		if !ok {
			i = len(out)
			at[s.ID] = i
			out = append(out, ProposalBranch{ID: s.ID, Title: s.Title})
		}
		out[i].Changes++
		return true
	})
	return out
}
