// Package benchheap measures the memory a benchmark's work takes: what it
// allocates and the most it holds at once.
package benchheap

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// Measure runs fn and reports the bytes it allocated per op
// (MB-alloc/op) and the peak live heap, as each garbage collection
// measured it and sampled every millisecond, above what was live before
// it started (MB-peak-live-above-start): the input, a database.
func Measure(b *testing.B, fn func()) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				peak = max(peak, read())
			}
		}
	}()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "MB-alloc/op")
	b.ReportMetric(float64(max(peak, base)-base)/(1<<20), "MB-peak-live-above-start")
}
