import type { Scenario } from '../../scenario-types';

const BUCKET = `package limiter

import (
	"sync"
	"time"
)

// Bucket is a token bucket: Rate tokens per second, up to Burst.
type Bucket struct {
	mu     sync.Mutex
	Rate   float64
	Burst  float64
	tokens float64
	last   time.Time
	now    func() time.Time
}

// NewBucket starts full.
func NewBucket(rate, burst float64) *Bucket {
	return &Bucket{Rate: rate, Burst: burst, tokens: burst, now: time.Now}
}

// Allow takes one token if there is one.
func (b *Bucket) Allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if !b.last.IsZero() {
		elapsed := int64(now.Sub(b.last) / time.Second)
		b.tokens = min(b.Burst, b.tokens+float64(elapsed)*b.Rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
`;

const BUCKET_TEST = `package limiter

import (
	"testing"
	"time"
)

func TestRefill(t *testing.T) {
	b := NewBucket(2.5, 1)
	if !b.Allow() {
		t.Fatal("first call: Allow() = false, want true")
	}
	for i := 0; i < 3; i++ {
		time.Sleep(400 * time.Millisecond)
		if !b.Allow() {
			t.Fatalf("after %d calls 400ms apart: Allow() = false, want true (tokens=%.2f)", i+1, b.tokens)
		}
	}
}
`;

const METRICS = `package metrics

import "github.com/prometheus/client_golang/prometheus"

// RequestsTotal counts proxied requests by route and status code.
var RequestsTotal = prometheus.NewCounterVec(
	prometheus.CounterOpts{Name: "gateway_requests_total", Help: "Requests proxied, by route and code."},
	[]string{"route", "code"},
)

func init() {
	prometheus.MustRegister(RequestsTotal)
}
`;

const MAIN = `package main

import (
	"log"
	"net/http"

	"github.com/acme/edge-gateway/internal/proxy"
)

func main() {
	mux := http.NewServeMux()
	mux.Handle("/", proxy.New("http://orders.internal:8080"))
	log.Fatal(http.ListenAndServe(":8443", mux))
}
`;

// The project's test wrapper (runs go test in the pinned toolchain image in CI); here it prints go test's report.
const TEST_SH = `#!/bin/sh
# Runs go test with the CI flags. Usage: scripts/test.sh [go test flags]
fixed=0
grep -q 'Seconds()' internal/limiter/bucket.go && fixed=1
case "$*" in
  *-count=*)
    if [ $fixed = 0 ]; then
      echo '--- FAIL: TestRefill (1.21s)'
      echo '    bucket_test.go:16: after 1 calls 400ms apart: Allow() = false, want true (tokens=0.00)'
      echo '--- FAIL: TestRefill (1.20s)'
      echo '    bucket_test.go:16: after 1 calls 400ms apart: Allow() = false, want true (tokens=0.00)'
      echo '--- FAIL: TestRefill (1.22s)'
      echo '    bucket_test.go:16: after 2 calls 400ms apart: Allow() = false, want true (tokens=0.00)'
      echo 'FAIL'
      echo 'FAIL	github.com/acme/edge-gateway/internal/limiter	241.870s'
      echo 'FAIL'
      exit 1
    fi
    echo 'ok  	github.com/acme/edge-gateway/internal/limiter	240.312s'
    exit 0 ;;
esac
echo '?   	github.com/acme/edge-gateway/cmd/gateway	[no test files]'
echo 'ok  	github.com/acme/edge-gateway/internal/limiter	1.243s'
echo 'ok  	github.com/acme/edge-gateway/internal/metrics	0.012s'
echo 'ok  	github.com/acme/edge-gateway/internal/proxy	0.047s'
`;

const TENANT = `package limiter

import (
	"net/http"
	"sync"
)

// TenantLimiter keeps one Bucket per X-Tenant-ID.
type TenantLimiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*Bucket
}

// NewTenantLimiter: rate tokens per second per tenant, up to burst.
func NewTenantLimiter(rate, burst float64) *TenantLimiter {
	return &TenantLimiter{rate: rate, burst: burst, buckets: map[string]*Bucket{}}
}

// Allow reports whether the tenant may make one more request now.
func (l *TenantLimiter) Allow(tenant string) bool {
	l.mu.Lock()
	b, ok := l.buckets[tenant]
	if !ok {
		b = NewBucket(l.rate, l.burst)
		l.buckets[tenant] = b
	}
	l.mu.Unlock()
	return b.Allow()
}

// Middleware answers 429 when the tenant's bucket is empty.
func (l *TenantLimiter) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !l.Allow(r.Header.Get("X-Tenant-ID")) {
			http.Error(w, "rate limit exceeded", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}
`;

/** The objective moves twice: the tenant limiter, then a flaky refill test, then (quietly) a metric first. */
export const actuallyFirstGoRatelimit: Scenario = {
  name: 'actually-first-go-ratelimit',
  covers: 'a Go gateway where the objective changes twice and the last change is a quiet "actually, let\'s first …": the metric is current, the fixed flake is done',
  repo: {
    'go.mod': 'module github.com/acme/edge-gateway\n\ngo 1.22\n\nrequire github.com/prometheus/client_golang v1.19.0\n',
    'cmd/gateway/main.go': MAIN,
    'internal/limiter/bucket.go': BUCKET,
    'internal/limiter/bucket_test.go': BUCKET_TEST,
    'internal/metrics/metrics.go': METRICS,
    'Makefile': 'ARGS ?= ./...\n\n.PHONY: test\ntest:\n\t@sh scripts/test.sh $(ARGS)\n',
    'scripts/test.sh': TEST_SH,
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Add per-tenant rate limiting to the edge gateway: one token bucket per X-Tenant-ID header, 50 req/s with a burst of 100. Put it in internal/limiter next to the existing bucket.',
          actions: [
            { tool: 'Read', path: 'cmd/gateway/main.go' },
            { tool: 'Read', path: 'internal/limiter/bucket.go' },
            { tool: 'Write', path: 'internal/limiter/tenant.go', content: TENANT },
            { tool: 'Bash', command: 'make test', description: 'Run the Go tests' },
            { text: 'Added TenantLimiter in internal/limiter/tenant.go: a map of Buckets keyed by X-Tenant-ID and a Middleware that answers 429 when the bucket is empty. Tests pass. It is not wired into cmd/gateway/main.go yet; that is the next step (NewTenantLimiter(50, 100) around the proxy handler).' },
          ],
        },
        {
          prompt: "Hold on before wiring it. TestRefill in internal/limiter is flaky in CI (it failed 3 times this week) and the tenant limiter sits on that bucket. Fix the refill first.",
          actions: [
            { tool: 'Bash', command: "make test ARGS='-run TestRefill -count=200 ./internal/limiter'", description: 'Reproduce the flaky refill test' },
            { tool: 'Read', path: 'internal/limiter/bucket_test.go' },
            { tool: 'Read', path: 'internal/limiter/bucket.go' },
            {
              tool: 'Edit',
              path: 'internal/limiter/bucket.go',
              old: '\t\telapsed := int64(now.Sub(b.last) / time.Second)\n\t\tb.tokens = min(b.Burst, b.tokens+float64(elapsed)*b.Rate)',
              new: '\t\telapsed := now.Sub(b.last).Seconds()\n\t\tb.tokens = min(b.Burst, b.tokens+elapsed*b.Rate)',
            },
            { tool: 'Bash', command: "make test ARGS='-run TestRefill -count=200 ./internal/limiter'", description: 'Run the refill test 200 times' },
            { tool: 'Bash', command: 'make test', description: 'Run all Go tests' },
            { text: 'Found it: Allow() truncated the elapsed time to whole seconds (int64(d / time.Second)) but still moved b.last forward, so calls less than a second apart never refilled anything. It now uses now.Sub(b.last).Seconds(). TestRefill passes 200/200 and the whole suite is green. Shall I go back to wiring the tenant limiter into main.go?' },
          ],
        },
        {
          prompt: "Actually, let's first add a Prometheus counter for the requests the limiter rejects, so we can watch the effect on the dashboards before it goes live. Wiring comes after that.",
          actions: [
            { tool: 'Read', path: 'internal/metrics/metrics.go' },
            {
              tool: 'Edit',
              path: 'internal/metrics/metrics.go',
              old: 'func init() {\n\tprometheus.MustRegister(RequestsTotal)\n}',
              new: '// RateLimitRejected counts requests the tenant limiter answered with 429, by tenant.\nvar RateLimitRejected = prometheus.NewCounterVec(\n\tprometheus.CounterOpts{Name: "gateway_ratelimit_rejected_total", Help: "Requests rejected by the tenant rate limiter."},\n\t[]string{"tenant"},\n)\n\nfunc init() {\n\tprometheus.MustRegister(RequestsTotal, RateLimitRejected)\n}',
            },
            { tool: 'Bash', command: 'make test', description: 'Run all Go tests' },
            { text: 'Added gateway_ratelimit_rejected_total{tenant} (metrics.RateLimitRejected) in internal/metrics/metrics.go and registered it; tests pass. Nothing increments it yet. Next: in TenantLimiter.Allow (internal/limiter/tenant.go) call metrics.RateLimitRejected.WithLabelValues(tenant).Inc() when the bucket is empty. The main.go wiring comes after that.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'pick it up from where we stopped' },
  facts: [
    { id: 'objective: the rejected-requests counter (the last, quiet change)', in: ['objective'], pattern: 'prometheus|counter|metric|rejected' },
    { id: 'next: increment the counter in TenantLimiter.Allow', in: ['next_valid_action'], pattern: 'WithLabelValues|\\.Inc\\(|increment|TenantLimiter\\.Allow|tenant\\.go' },
    { id: 'the refill fix done', in: ['done'], pattern: 'refill|TestRefill|flak|Seconds\\(\\)' },
    { id: 'bucket.go in the files', in: ['files'], pattern: 'limiter/bucket\\.go' },
    { id: 'metrics.go in the files', in: ['files'], pattern: 'metrics/metrics\\.go' },
  ],
  antiFacts: [
    { id: 'the finished refill fix as the objective', in: ['objective'], pattern: 'refill|TestRefill|flak' },
    { id: 'the fixed TestRefill failure shown open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*TestRefill' },
    { id: 'a stale next step: fix the refill, or wire main.go before the metric', in: ['next_valid_action'], pattern: 'TestRefill|refill|^(?!.*(metric|counter|Inc\\(|rejected)).*main\\.go' },
  ],
};
