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
// token buckets; only failures take tokens.
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

// check refuses a login attempt once either bucket is empty.
// Errors: ETooMany.
func (l *loginLimiter) check(account, addr string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if bucket(l.accounts, account, accountEvery, accountBurst, now).TokensAt(now) < 1 {
		return site.Errorf(site.ETooMany, "Too many failed logins for this account: wait a few minutes and try again.")
	}
	if bucket(l.addrs, addr, addressEvery, addressBurst, now).TokensAt(now) < 1 {
		return site.Errorf(site.ETooMany, "Too many failed logins from your network: wait a few minutes and try again.")
	}
	return nil
}

func (l *loginLimiter) failed(account, addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	bucket(l.accounts, account, accountEvery, accountBurst, now).AllowN(now, 1)
	bucket(l.addrs, addr, addressEvery, addressBurst, now).AllowN(now, 1)
}

// succeeded forgets an account's failures; the address keeps its count.
func (l *loginLimiter) succeeded(account string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.accounts, account)
}
