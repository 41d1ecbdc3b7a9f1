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
// token buckets: an attempt takes its account's token before the password
// is checked (a right one gives it back); the address pays for failures.
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

// attempt is a login attempt that has taken its account's token.
type attempt struct {
	l             *loginLimiter
	account, addr string
}

// take checks both buckets and takes the account's token before the
// password is checked, under one lock, so that parallel attempts on one
// account cannot all pass a check made before any of them failed. The
// address's bucket, which everyone behind one office router shares, is
// charged for failures only (failed). Errors: ETooMany.
func (l *loginLimiter) take(account, addr string) (*attempt, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	acc := bucket(l.accounts, account, accountEvery, accountBurst, now)
	if acc.TokensAt(now) < 1 {
		return nil, site.Errorf(site.ETooMany, "Too many failed logins for this account: wait a few minutes and try again.")
	}
	if bucket(l.addrs, addr, addressEvery, addressBurst, now).TokensAt(now) < 1 {
		return nil, site.Errorf(site.ETooMany, "Too many failed logins from your network: wait a few minutes and try again.")
	}
	acc.ReserveN(now, 1)
	return &attempt{l: l, account: account, addr: addr}, nil
}

// succeeded forgets the account's failures: the password was right.
func (a *attempt) succeeded() {
	a.l.mu.Lock()
	defer a.l.mu.Unlock()
	delete(a.l.accounts, a.account)
}

// failed charges the address for a wrong password.
func (a *attempt) failed() {
	a.l.mu.Lock()
	defer a.l.mu.Unlock()
	now := a.l.now()
	bucket(a.l.addrs, a.addr, addressEvery, addressBurst, now).AllowN(now, 1)
}
