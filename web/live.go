package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// change is what a live update tells the others viewing a project.
type change struct {
	Kind   string `json:"kind"` // rename, page, comment, project, deleted or tree (anything else)
	Page   int64  `json:"page,omitempty"`
	Title  string `json:"title,omitempty"` // a rename's new title, so nobody has to fetch it
	By     string `json:"by"`
	Client string `json:"client,omitempty"` // the tab that made it, which already shows it
}

// presence is one person viewing a project.
type presence struct {
	Name  string `json:"name"`
	Share bool   `json:"share"`
}

// subscriber is one open event stream.
type subscriber struct {
	ch    chan []byte // SSE frames; closed when the stream must end
	who   presence
	user  int64
	share int64
	// The credentials the stream was opened with, checked again before
	// each change and heartbeat: a session ends on logout or a password
	// reset (which may come from the command line, another process), a
	// share link when it expires.
	session, shareToken string
}

// key is who holds the stream: its session or share link.
func (s *subscriber) key() string {
	if s.session != "" {
		return "s:" + s.session
	}
	return "l:" + s.shareToken
}

// viewerKey tells one person from another in a project's presence: two
// tabs of one person are one entry.
func (s *subscriber) viewerKey() string { return fmt.Sprint(s.user, s.who.Share, s.who.Name) }

// subscriberBuffer is how many frames a slow stream may fall behind
// before it is closed; the browser reconnects and reloads what it shows.
const subscriberBuffer = 64

// Presence is sent presenceDelay after the first join or leave, once for
// all that came meanwhile: a thousand tabs opening at once cost a
// thousand frames, not a million. One session or share link may hold
// maxStreams streams (tabs) at once.
const (
	presenceDelay = 200 * time.Millisecond
	maxStreams    = 20
)

// errTooManyStreams refuses a stream past maxStreams.
var errTooManyStreams = site.Errorf(site.ETooMany, "This plan is open in too many tabs of your browser: close some and reload.")

// hub fans changes and presence out to the streams of each project. With
// other instances on the database (tell is set: relay.go), it tells them
// its changes, its viewers and the streams to end, and hears theirs
// (receive).
type hub struct {
	mu      sync.Mutex
	subs    map[int64]map[*subscriber]bool
	held    map[string]int        // streams per session or share link
	pending map[int64]*time.Timer // presence about to be sent, per project
	closed  bool

	self   string                             // this instance, on what it tells
	tell   func(liveMsg)                      // to the other instances; nil when alone
	remote map[int64]map[string]remoteViewers // the viewers of each project on each other instance
}

// remoteViewers are a project's viewers on another instance, as it last
// told them; they are forgotten after remoteKept without news (the
// instance died).
type remoteViewers struct {
	list []onlooker
	at   time.Time
}

// onlooker is one person viewing a project, as instances tell each other.
type onlooker struct {
	Key string `json:"key"` // subscriber.viewerKey
	presence
}

// liveMsg is what one instance's hub tells the others'.
type liveMsg struct {
	From    string     `json:"from"` // the instance that sent it, which skips its own
	Kind    string     `json:"kind"` // change, presence or end
	Project int64      `json:"project,omitempty"`
	Change  *change    `json:"change,omitempty"`
	Viewers []onlooker `json:"viewers,omitempty"` // presence: everyone viewing Project on From
	End     *ending    `json:"end,omitempty"`
}

// ending names the streams to end: those of a session (by its token's
// hash, as the database keeps no tokens), of a share link, of a user.
type ending struct {
	Session string `json:"session,omitempty"`
	Share   int64  `json:"share,omitempty"`
	User    int64  `json:"user,omitempty"`
}

func (e ending) matches(s *subscriber) bool {
	return e.Session != "" && s.session != "" && tokenKey(s.session) == e.Session ||
		e.Share != 0 && s.share == e.Share ||
		e.User != 0 && s.user == e.User
}

// tokenKey is a session token's hash.
func tokenKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func newHub() *hub {
	return &hub{subs: map[int64]map[*subscriber]bool{}, held: map[string]int{}, pending: map[int64]*time.Timer{},
		remote: map[int64]map[string]remoteViewers{}}
}

// frame is a server-sent event whose data is v as JSON.
func frame(event string, v any) []byte {
	b, _ := json.Marshal(v)
	return sseFrame(event, b)
}

// send queues a frame, ending a stream that has fallen too far behind.
// Call with h.mu held.
func (h *hub) send(pid int64, s *subscriber, f []byte) {
	select {
	case s.ch <- f:
	default:
		h.drop(pid, s)
	}
}

func (h *hub) drop(pid int64, s *subscriber) {
	if h.subs[pid][s] {
		delete(h.subs[pid], s)
		close(s.ch)
		if h.held[s.key()]--; h.held[s.key()] <= 0 {
			delete(h.held, s.key())
		}
	}
}

// join adds a stream; everyone on the project hears who is there soon.
// Errors: ETooMany (maxStreams); closed is false once the hub is shut.
func (h *hub) join(pid int64, s *subscriber) (ok bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false, nil
	}
	if h.held[s.key()] >= maxStreams {
		return false, errTooManyStreams
	}
	if h.subs[pid] == nil {
		h.subs[pid] = map[*subscriber]bool{}
	}
	h.subs[pid][s] = true
	h.held[s.key()]++
	h.announceSoon(pid)
	return true, nil
}

func (h *hub) leave(pid int64, s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.drop(pid, s)
	if len(h.subs[pid]) == 0 {
		delete(h.subs, pid)
	}
	h.announceSoon(pid)
}

// announceSoon, presenceDelay from now unless it is already due, sends
// the project's viewers to its streams and tells the other instances
// who views it here. Call with h.mu held.
func (h *hub) announceSoon(pid int64) {
	if h.pending[pid] != nil || h.closed {
		return
	}
	h.pending[pid] = time.AfterFunc(presenceDelay, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.pending, pid)
		h.show(pid)
		h.tellViewers(pid)
	})
}

// local is who views the project on this instance, one entry per
// person. Call with h.mu held.
func (h *hub) local(pid int64) []onlooker {
	seen := map[string]bool{}
	list := []onlooker{}
	for s := range h.subs[pid] {
		if k := s.viewerKey(); !seen[k] {
			seen[k] = true
			list = append(list, onlooker{k, s.who})
		}
	}
	return list
}

// show sends the project's viewers, here and on the other instances, one
// entry per person, to its streams here. Call with h.mu held.
func (h *hub) show(pid int64) {
	if len(h.subs[pid]) == 0 {
		return
	}
	seen := map[string]bool{}
	list := []presence{}
	add := func(vs []onlooker) {
		for _, v := range vs {
			if !seen[v.Key] {
				seen[v.Key] = true
				list = append(list, v.presence)
			}
		}
	}
	add(h.local(pid))
	for _, r := range h.remote[pid] {
		if time.Since(r.at) < remoteKept {
			add(r.list)
		}
	}
	slices.SortFunc(list, func(a, b presence) int { return strings.Compare(a.Name, b.Name) })
	h.fanout(pid, frame("presence", list))
}

// fanout sends a frame to the project's streams here. Call with h.mu
// held.
func (h *hub) fanout(pid int64, f []byte) {
	for s := range h.subs[pid] {
		h.send(pid, s, f)
	}
}

// tellViewers tells the other instances who views the project here (an
// empty list: nobody any more). Call with h.mu held.
func (h *hub) tellViewers(pid int64) {
	if h.tell != nil {
		h.tell(liveMsg{From: h.self, Kind: "presence", Project: pid, Viewers: h.local(pid)})
	}
}

// publish sends a change to the project's streams here and on the other
// instances.
func (h *hub) publish(pid int64, ch change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fanout(pid, frame("change", ch))
	if h.tell != nil {
		h.tell(liveMsg{From: h.self, Kind: "change", Project: pid, Change: &ch})
	}
}

// end ends the streams e names, here and on the other instances.
func (h *hub) end(e ending) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.endHere(e.matches)
	if h.tell != nil {
		h.tell(liveMsg{From: h.self, Kind: "end", End: &e})
	}
}

// endHere ends the streams here that match and tells the rest of each
// project who is left. Call with h.mu held.
func (h *hub) endHere(match func(*subscriber) bool) {
	for pid, subs := range h.subs {
		n := len(subs)
		for s := range subs {
			if match(s) {
				h.drop(pid, s)
			}
		}
		if len(subs) != n {
			h.announceSoon(pid)
		}
	}
}

// receive takes what another instance's hub told (a liveMsg in JSON) to
// the streams here.
func (h *hub) receive(payload []byte) {
	var m liveMsg
	if err := json.Unmarshal(payload, &m); err != nil || m.From == h.self {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case m.Kind == "change" && m.Change != nil:
		h.fanout(m.Project, frame("change", m.Change))
	case m.Kind == "end" && m.End != nil:
		h.endHere(m.End.matches)
	case m.Kind == "presence":
		if len(m.Viewers) == 0 {
			delete(h.remote[m.Project], m.From)
		} else {
			if h.remote[m.Project] == nil {
				h.remote[m.Project] = map[string]remoteViewers{}
			}
			h.remote[m.Project][m.From] = remoteViewers{m.Viewers, time.Now()}
		}
		h.show(m.Project)
	}
}

// refresh tells the other instances again who views each project here,
// so that they keep it, and forgets the viewers of instances that have
// not told theirs for remoteKept (they died), showing who is left.
func (h *hub) refresh() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for pid := range h.subs {
		h.tellViewers(pid)
	}
	for pid, byInstance := range h.remote {
		for from, r := range byInstance {
			if time.Since(r.at) >= remoteKept {
				delete(byInstance, from)
				h.show(pid)
			}
		}
		if len(byInstance) == 0 {
			delete(h.remote, pid)
		}
	}
}

// logout ends the streams opened with a session.
func (h *hub) logout(session string) { h.end(ending{Session: tokenKey(session)}) }

// kick ends the streams opened through a share link (after revoking it).
func (h *hub) kick(shareID int64) { h.end(ending{Share: shareID}) }

// kickUser ends a user's streams (after losing a team); each reconnects
// only where the user still has access.
func (h *hub) kickUser(userID int64) { h.end(ending{User: userID}) }

// close ends every stream, for a graceful shutdown, and tells the other
// instances that nobody views anything here any more.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for pid, t := range h.pending {
		t.Stop()
		delete(h.pending, pid)
	}
	for pid := range h.subs {
		if h.tell != nil {
			h.tell(liveMsg{From: h.self, Kind: "presence", Project: pid})
		}
	}
	h.endHere(func(*subscriber) bool { return true })
}

// Start links the server's live hub to the other servers on a
// PostgreSQL database (the relay), from the live events that come after
// now; on SQLite there are none. Close stops it.
func (s *Server) Start() {
	if s.live != nil && s.live.SharedLive() && s.relay == nil {
		s.relay = startRelay(s.live, s.hub, s.log)
	}
}

// Published tells the editors of project pid that it changed (kind as a
// change names it) by whom, on this server and, through the relay, on
// the others: for work done outside a request (package jobs).
func (s *Server) Published(pid int64, kind, by string) {
	s.hub.publish(pid, change{Kind: kind, By: by})
}

// Close ends the live-update streams so a graceful shutdown need not
// wait for them, and stops the relay.
func (s *Server) Close() {
	s.hub.close()
	if s.relay != nil {
		s.relay.close()
	}
}

// heartbeat keeps idle streams open through proxies.
const heartbeat = 25 * time.Second

// events streams a project's changes and viewers (server-sent events).
func (s *Server) events(c echo.Context) error {
	p := currentProject(c)
	v := viewer(c)
	sub := &subscriber{ch: make(chan []byte, subscriberBuffer), user: v.UserID, share: v.ShareLinkID,
		who: presence{Name: v.Name, Share: v.Share}}
	if ck, err := c.Cookie(sessionCookie); err == nil && v.UserID != 0 {
		sub.session = ck.Value
	}
	if ck, err := c.Cookie(shareCookie); err == nil && v.ShareLinkID != 0 {
		sub.shareToken = ck.Value
	}
	if v.UserID == 0 {
		sub.who.Name = author(c)
		if sub.who.Name == "" {
			sub.who.Name = "Guest"
		}
	}
	ok, err := s.hub.join(p.ID, sub)
	if !ok {
		return err // nil: shutting down
	}
	defer s.hub.leave(p.ID, sub)
	w := openStream(c)
	if _, err := w.Write([]byte("retry: 2000\n\n")); err != nil {
		return nil
	}
	w.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	ctx := c.Request().Context()
	for {
		select {
		case <-ctx.Done():
			return nil
		case f, ok := <-sub.ch:
			if !ok || !s.stillAllowed(ctx, sub) {
				return nil
			}
			if _, err := w.Write(f); err != nil {
				return nil
			}
			w.Flush()
		case <-tick.C:
			if !s.beat(ctx, w, sub) {
				return nil
			}
		}
	}
}

// beat is a stream's heartbeat: it reports whether the stream's
// credentials still hold and a comment went out.
func (s *Server) beat(ctx context.Context, w *echo.Response, sub *subscriber) bool {
	if !s.stillAllowed(ctx, sub) {
		return false
	}
	if _, err := w.Write([]byte(": ping\n\n")); err != nil {
		return false
	}
	w.Flush()
	return true
}

// openStream answers c with a stream of server-sent events and returns
// the response to write them to.
func openStream(c echo.Context) *echo.Response {
	w := c.Response()
	// The server's write timeout is for ordinary requests, not streams.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set(echo.HeaderCacheControl, "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return w
}

// stillAllowed reports whether the credentials a stream was opened with
// still open the project: the session exists and has not expired, the
// share link is neither revoked nor expired. (Losing a team's membership
// ends a stream at once: kickUser.)
func (s *Server) stillAllowed(ctx context.Context, sub *subscriber) bool {
	if sub.session != "" && !s.sessions.live(ctx, sub.session) {
		return false
	}
	if sub.shareToken != "" {
		if _, err := s.store.shares.UseShareLink(ctx, sub.shareToken); err != nil {
			return false
		}
	}
	return true
}

// publishChanges tells the project's other viewers about a change that
// succeeded.
func (s *Server) publishChanges(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		m := c.Request().Method
		if err != nil || m == http.MethodGet || m == http.MethodHead || c.Response().Status >= 400 {
			return err
		}
		ch := changeOf(c)
		ch.By, ch.Client = author(c), c.Request().Header.Get("X-Client-ID")
		s.hub.publish(currentProject(c).ID, ch)
		return nil
	}
}
