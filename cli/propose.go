package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"siteplan/site"
	"siteplan/store"
)

// A proposal from the command line: siteplan import --project ID
// --propose SOURCE... makes each source (a siteplan/1 document, or a
// Mermaid flowchart or mindmap) a proposal on the plan, which waits in
// the editor for a person to accept it; it prints each proposal's number
// alone on a line, and what it changes to standard error.

// proposal is one source read for a proposal: a document, or Mermaid.
type proposal struct {
	Title    string         `json:"title"`
	Document *site.Document `json:"document,omitempty"`
	Mermaid  string         `json:"mermaid,omitempty"`
}

// readProposal reads a source ("-": standard input) as a proposal titled
// title (default: the file's name).
func readProposal(src, title string, stdin io.Reader) (proposal, error) {
	var b []byte
	var err error
	if src == "-" {
		b, err = io.ReadAll(io.LimitReader(stdin, site.MaxDocumentBytes+1))
	} else {
		b, err = os.ReadFile(src)
	}
	if err != nil {
		return proposal{}, err
	}
	if len(b) > site.MaxDocumentBytes {
		return proposal{}, fmt.Errorf("larger than %d MB", site.MaxDocumentBytes>>20)
	}
	p := proposal{Title: title}
	if p.Title == "" {
		p.Title = "Import of " + filepath.Base(src)
		if src == "-" {
			p.Title = "Import from standard input"
		}
	}
	if isMermaid(src, b) {
		p.Mermaid = string(b)
		return p, nil
	}
	p.Document, err = site.ParseDocument(bytes.NewReader(b))
	return p, err
}

// isMermaid reports whether a source is a Mermaid diagram: named .mmd or
// .mermaid, or starting with flowchart, graph or mindmap.
func isMermaid(path string, b []byte) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mmd", ".mermaid":
		return true
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(b[:min(len(b), 512)])), "\n")
	word, _, _ := strings.Cut(strings.TrimSpace(first), " ")
	return word == "flowchart" || word == "graph" || word == "mindmap"
}

// proposeCmd makes a proposal of each source on project id, in the
// database of fs or (server set) through a server's API.
func proposeCmd(ctx context.Context, local func() (proposer, error), server string, id int64, title string, sources []string, stdin io.Reader, stdout io.Writer) error {
	read := make([]proposal, 0, len(sources))
	for _, src := range sources {
		p, err := readProposal(src, title, stdin)
		if err != nil {
			return fmt.Errorf("import %s: %w; nothing was proposed", src, err)
		}
		read = append(read, p)
	}
	var to proposer
	var err error
	if server != "" {
		to, err = remoteProposer(server)
	} else {
		to, err = local()
	}
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer to.Close()
	for i, p := range read {
		n, changes, err := to.Propose(ctx, id, p)
		if err != nil {
			return fmt.Errorf("import %s: %w", sources[i], err)
		}
		fmt.Fprintln(stdout, n)
		fmt.Fprintf(os.Stderr, "siteplan: proposal %d on project %d, waiting for the team (/projects/%d/proposals/%d):\n%s", n, id, id, n, changes)
	}
	return nil
}

// proposer makes proposals: in a database, or through a server.
type proposer interface {
	Propose(ctx context.Context, projectID int64, p proposal) (number int, changes string, err error)
	Close() error
}

// remoteProposer proposes through server's API.
func remoteProposer(server string) (proposer, error) {
	r, err := newRemote(server)
	if err != nil {
		return nil, err
	}
	return remoteProposals{r}, nil
}

type remoteProposals struct{ r *remote }

func (rp remoteProposals) Close() error { return nil }

func (rp remoteProposals) Propose(ctx context.Context, projectID int64, p proposal) (int, string, error) {
	var out struct {
		Number  int              `json:"number"`
		Changes *site.Comparison `json:"changes"`
	}
	if _, err := rp.r.call(ctx, "POST", fmt.Sprintf("/projects/%d/proposals", projectID), p, &out); err != nil {
		return 0, "", err
	}
	text := ""
	if out.Changes != nil {
		text = out.Changes.Text()
	}
	return out.Number, text, nil
}

// draft is the draft of a proposal read, on base (the plan).
func (p proposal) draft(base *site.Document) (site.ProposalDraft, error) {
	d := site.ProposalDraft{Title: p.Title, Source: site.SourceImport, Doc: p.Document, Settings: p.Document != nil}
	if p.Mermaid != "" {
		doc, err := site.ParseMermaid(p.Mermaid, base)
		if err != nil {
			return d, err
		}
		d.Doc, d.Source = doc, site.SourceMermaid
	}
	return d, nil
}

// localProposals propose in a database.
type localProposals struct{ db *store.Store }

func (lp localProposals) Close() error { return lp.db.Close() }

func (lp localProposals) Propose(ctx context.Context, projectID int64, p proposal) (int, string, error) {
	base, err := lp.db.Projects.Document(ctx, projectID)
	if err != nil {
		return 0, "", err
	}
	d, err := p.draft(base)
	if err != nil {
		return 0, "", err
	}
	prop, err := lp.db.Proposals.Propose(ctx, projectID, d)
	if err != nil {
		return 0, "", err
	}
	_, plans, err := lp.db.Proposals.Proposal(ctx, projectID, prop.Number)
	if err != nil {
		return 0, "", err
	}
	return prop.Number, plans.Comparison().Text(), nil
}

// mermaidPlan reads a Mermaid diagram as a new plan named name (default:
// the file's name) at baseURL. Errors: what to fix.
func mermaidPlan(text, src, name, baseURL string) (*site.Document, error) {
	if baseURL == "" {
		return nil, fmt.Errorf("a Mermaid diagram has no base URL: say it with --base-url https://www.example.com/")
	}
	d, err := site.ParseMermaid(text, nil)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	}
	d.Project = site.DocProject{Name: name, BaseURL: site.WithScheme(baseURL)}
	return d, d.Validate()
}
