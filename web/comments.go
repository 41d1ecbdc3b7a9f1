package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// commentStore is what comment threads need.
type commentStore interface {
	AddComment(ctx context.Context, c *site.Comment, shareLinkID int64) error
	Comments(ctx context.Context, pageID int64) ([]site.Comment, error)
	OpenComments(ctx context.Context, projectID int64) ([]site.Comment, error)
	OpenCommentCounts(ctx context.Context, projectID int64) (map[int64]int, error)
	Comment(ctx context.Context, projectID, id int64) (site.Comment, error)
	ResolveComment(ctx context.Context, projectID, id int64, by string, resolved bool) error
}

// author is the name a comment or resolution goes under: the account's
// name, or what a share-link visitor typed (remembered in a cookie).
func author(c echo.Context) string {
	if v := viewer(c); v.UserID != 0 {
		return v.Name
	}
	if a := strings.TrimSpace(c.FormValue("author")); a != "" {
		return a
	}
	if ck, err := c.Cookie(nameCookie); err == nil {
		name, _ := url.QueryUnescape(ck.Value)
		return name
	}
	return ""
}

// commentsProps gathers the threads of a page for its comments section;
// the page's open-thread count is taken from them, so it is as fresh.
func (s *Server) commentsProps(c echo.Context, pg site.Page) (views.CommentsProps, error) {
	threads, err := s.store.comments.Comments(c.Request().Context(), pg.ID)
	if err != nil {
		return views.CommentsProps{}, err
	}
	pg.OpenComments = site.OpenThreads(threads)
	names, err := s.store.inbox.MentionNames(c.Request().Context(), pg.ProjectID)
	return views.CommentsProps{Page: pg, Threads: threads, Author: author(c), Mentions: names}, err
}

// renderComments answers with a page's comments section, and with its
// open-thread count for the outline in a comment-count event: a row that
// showed none has no place to swap it into, and a review that has not
// loaded the page's row has no row at all.
func renderComments(c echo.Context, status int, props views.CommentsProps) error {
	triggerWith(c, "comment-count", map[string]any{"id": props.Page.ID, "label": views.CommentCountLabel(props.Page.OpenComments)})
	return render(c, status, views.Comments(props))
}

func (s *Server) pageComments(c echo.Context) error {
	_, pg, err := s.page(c)
	if err != nil {
		return err
	}
	props, err := s.commentsProps(c, pg)
	if err != nil {
		return err
	}
	return renderComments(c, http.StatusOK, props)
}

func (s *Server) addComment(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	v := viewer(c)
	if err := s.commentTurn(c); err != nil {
		return err
	}
	cm := site.Comment{ProjectID: p.ID, PageID: pg.ID, ParentID: formID(c, "parent"), UserID: v.UserID, Author: author(c), Body: c.FormValue("body")}
	err = s.store.comments.AddComment(c.Request().Context(), &cm, v.ShareLinkID)
	if code := site.ErrorCode(err); code != "" && code != site.EInvalid {
		return err
	}
	props, perr := s.commentsProps(c, pg)
	if perr != nil {
		return perr
	}
	switch site.ErrorCode(err) {
	case "":
		if v.UserID == 0 {
			// Escaped: a cookie value cannot hold "Zoë" or a comma as typed.
			s.setCookie(c, nameCookie, url.QueryEscape(cm.Author), 365*24*time.Hour)
		}
		setChange(c, change{Kind: "comment", Page: pg.ID})
		return renderComments(c, http.StatusCreated, props)
	}
	props.Errors, props.Body = site.ErrorFields(err), c.FormValue("body")
	return rerender(c, err, views.Comments(props))
}

func (s *Server) resolveComment(c echo.Context) error { return s.setResolved(c, true) }
func (s *Server) reopenComment(c echo.Context) error  { return s.setResolved(c, false) }

func (s *Server) setResolved(c echo.Context, resolved bool) error {
	p := currentProject(c)
	id, err := idParam(c, "cid")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	cm, err := s.store.comments.Comment(ctx, p.ID, id)
	if err != nil {
		return err
	}
	if err := s.store.comments.ResolveComment(ctx, p.ID, id, author(c), resolved); err != nil {
		return err
	}
	pg, err := s.store.pages.Page(ctx, cm.PageID)
	if err != nil {
		return err
	}
	props, err := s.commentsProps(c, pg)
	if err != nil {
		return err
	}
	setChange(c, change{Kind: "comment", Page: pg.ID})
	return renderComments(c, http.StatusOK, props)
}

func (s *Server) openComments(c echo.Context) error {
	p := currentProject(c)
	threads, err := s.store.comments.OpenComments(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.OpenComments(p.ID, threads))
}

// Comments are limited per visitor (an account, or a share-link
// visitor's address) and per share link: a link posted 2,000 comments
// in 17.6 s, each a notification of the team. A visitor writes 20 at
// once, then one every 6 s; a link's visitors 60 together, then one
// every 10 s.
const (
	commentBurst     = 20
	commentEvery     = 6 * time.Second
	linkCommentBurst = 60
	linkCommentEvery = 10 * time.Second
)

// commentTurn takes the visitor's comment token, and the link's for a
// share-link visitor. Errors: ETooMany.
func (s *Server) commentTurn(c echo.Context) error {
	v := viewer(c)
	visitor := site.Bucket{Key: "comment-account:" + strconv.FormatInt(v.UserID, 10), Every: commentEvery, Burst: commentBurst}
	var also []site.Bucket
	if v.UserID == 0 || v.Share {
		visitor.Key = "comment-visitor:" + c.RealIP()
		also = append(also, site.Bucket{Key: "comment-link:" + strconv.FormatInt(v.ShareLinkID, 10), Every: linkCommentEvery, Burst: linkCommentBurst})
	}
	ctx, now := c.Request().Context(), s.now()
	empty, err := s.store.limits.TakeToken(ctx, now, visitor, also...)
	switch {
	case err != nil:
		return err
	case empty == visitor.Key:
		return site.Errorf(site.ETooMany, "You have written many comments in a short time: wait a minute and try again.")
	case empty != "":
		return site.Errorf(site.ETooMany, "This share link's visitors have written many comments in a short time: wait a few minutes and try again.")
	}
	for _, b := range also {
		if err := s.store.limits.SpendToken(ctx, now, b); err != nil {
			return err
		}
	}
	return nil
}
