package cli

import (
	"siteplan/jobs"
	"siteplan/store"
	"siteplan/web"
)

// WebStores are the parts of st the web server uses.
func WebStores(st *store.Store) web.Stores {
	return web.Stores{Accounts: st.Accounts, Teams: st.Teams, Sharing: st.Sharing, Projects: st.Projects, Pages: st.Pages,
		Links: st.Links, History: st.History, Redirects: st.Redirects, Comments: st.Comments, Notifications: st.Notifications,
		Webhooks: st.Webhooks, Jobs: st.Jobs, Live: st.Live, Limits: st.Limits, Themes: st.Themes, Studies: st.TreeTests, Tokens: st.Tokens, Proposals: st.Proposals, RateCards: st.RateCards, Ping: st.Ping}
}

// JobStores are the parts of st the background jobs use.
func JobStores(st *store.Store) jobs.Stores {
	return jobs.Stores{Webhooks: st.Webhooks, Notifications: st.Notifications, Projects: st.Projects, Jobs: st.Jobs, Pages: st.Pages,
		Redirects: st.Redirects, History: st.History, Queued: st.Queued}
}
