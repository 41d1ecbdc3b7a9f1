package web

import (
	"sync"
	"time"

	"golang.org/x/time/rate"

	"siteplan/site"
)

// Failed logins allowed before the limiter steps in, and how fast the
// allowance comes back: 5 per account, then one every 2 minutes; 20 per
// address, then one every 30 seconds.
const (
	accountBurst = 5
	accountEvery = 2 * time.Minute
	addressBurst = 20
	addressEvery = 30 * time.Second
	loginRetry   = 2 * time.Minute
	maxLimiters  = 100_000
)

// loginLimiter counts failed logins per account and per address with
// token buckets: every attempt takes a token, a right password gives it
// back.
type loginLimiter struct {
	mu       sync.Mutex
	accounts map[string]*rate.Limiter
	addrs    map[string]*rate.Limiter
	now      func() time.Time
}

func newLoginLimiter() *loginLimiter {
	return &loginLimiter{accounts: map[string]*rate.Limiter{}, addrs: map[string]*rate.Limiter{}, now: time.Now}
}

func bucket(m map[string]*rate.Limiter, key string, every time.Duration, burst int, now time.Time) *rate.Limiter {
	l, ok := m[key]
	if !ok {
		if len(m) >= maxLimiters { // forget buckets that are full again
			for k, old := range m {
				if old.TokensAt(now) >= float64(old.Burst()) {
					delete(m, k)
				}
			}
		}
		l = rate.NewLimiter(rate.Every(every), burst)
		m[key] = l
	}
	return l
}

// attempt is a login attempt that has taken its token from both buckets.
type attempt struct {
	l       *loginLimiter
	account string
	addr    *rate.Reservation
}

// take takes a token from the account's and the address's buckets before
// the password is checked, under one lock, so that parallel attempts
// cannot all pass a check made before any of them failed. It refuses the
// attempt once either bucket is empty. Errors: ETooMany.
func (l *loginLimiter) take(account, addr string) (*attempt, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	acc := bucket(l.accounts, account, accountEvery, accountBurst, now)
	adr := bucket(l.addrs, addr, addressEvery, addressBurst, now)
	if acc.TokensAt(now) < 1 {
		return nil, site.Errorf(site.ETooMany, "Too many failed logins for this account: wait a few minutes and try again.")
	}
	if adr.TokensAt(now) < 1 {
		return nil, site.Errorf(site.ETooMany, "Too many failed logins from your network: wait a few minutes and try again.")
	}
	acc.ReserveN(now, 1)
	return &attempt{l: l, account: account, addr: adr.ReserveN(now, 1)}, nil
}

// succeeded gives the tokens of a right password back: the account's
// failures are forgotten, the address's token returned.
func (a *attempt) succeeded() {
	a.l.mu.Lock()
	defer a.l.mu.Unlock()
	delete(a.l.accounts, a.account)
	a.addr.CancelAt(a.l.now())
}
