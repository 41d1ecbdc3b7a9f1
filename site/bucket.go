package site

import "time"

// Bucket is a token bucket of a rate limit: it holds Burst tokens at
// most and gains one every Every. Its state is one time, when it is full
// again (FullAt): a bucket full at or before now holds Burst tokens.
type Bucket struct {
	Key   string
	Every time.Duration
	Burst int
}

// Has reports whether a bucket full again at fullAt holds a token at now.
func (b Bucket) Has(fullAt, now time.Time) bool {
	return fullAt.Sub(now) <= time.Duration(b.Burst-1)*b.Every
}

// Take is when a bucket full again at fullAt is full again once a token
// is taken at now.
func (b Bucket) Take(fullAt, now time.Time) time.Time {
	if fullAt.Before(now) {
		fullAt = now
	}
	return fullAt.Add(b.Every)
}
