package web

import (
	"context"
	"time"

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
)

// limitStore keeps the limiter's token buckets, shared by every
// instance on the database.
type limitStore interface {
	TakeToken(ctx context.Context, now time.Time, take site.Bucket, also ...site.Bucket) (empty string, err error)
	SpendToken(ctx context.Context, now time.Time, b site.Bucket) error
	FillBucket(ctx context.Context, key string) error
	idempotencyStore
}

// loginLimiter counts failed logins per account and per address with
// token buckets: an attempt takes its account's token before the password
// is checked (a right one gives it back); the address pays for failures.
type loginLimiter struct {
	st  limitStore
	now func() time.Time
}

func accountBucket(email string) site.Bucket {
	return site.Bucket{Key: "login-account:" + email, Every: accountEvery, Burst: accountBurst}
}

func addressBucket(addr string) site.Bucket {
	return site.Bucket{Key: "login-address:" + addr, Every: addressEvery, Burst: addressBurst}
}

// attempt is a login attempt that has taken its account's token.
type attempt struct {
	l             *loginLimiter
	account, addr string
}

// take checks both buckets and takes the account's token before the
// password is checked, in one transaction, so that parallel attempts on
// one account, on any instance, cannot all pass a check made before any
// of them failed. The address's bucket, which everyone behind one office
// router shares, is charged for failures only (failed). Errors: ETooMany,
// and the store's.
func (l *loginLimiter) take(ctx context.Context, account, addr string) (*attempt, error) {
	acc := accountBucket(account)
	empty, err := l.st.TakeToken(ctx, l.now(), acc, addressBucket(addr))
	switch {
	case err != nil:
		return nil, err
	case empty == acc.Key:
		return nil, site.Errorf(site.ETooMany, "Too many failed logins for this account: wait a few minutes and try again.")
	case empty != "":
		return nil, site.Errorf(site.ETooMany, "Too many failed logins from your network: wait a few minutes and try again.")
	}
	return &attempt{l: l, account: account, addr: addr}, nil
}

// succeeded forgets the account's failures: the password was right.
func (a *attempt) succeeded(ctx context.Context) error {
	return a.l.st.FillBucket(ctx, accountBucket(a.account).Key)
}

// failed charges the address for a wrong password.
func (a *attempt) failed(ctx context.Context) error {
	return a.l.st.SpendToken(ctx, a.l.now(), addressBucket(a.addr))
}
