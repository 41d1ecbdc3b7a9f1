# siteplan: `make run` starts the editor, `make test` runs every test.
SHELL := /bin/bash
GO ?= go
DB ?= siteplan.db
ADDR ?= 127.0.0.1:8080
VENDOR := static/vendor/htmx.min.js static/vendor/htmx-ext-sse.min.js
BUNDLE := static/dist/app.js

.PHONY: run build static test lint lint-api image test-image generate check-generated bench load load-treetest load-hostile probes clean fonts

run: build
	./siteplan serve --addr $(ADDR) --db $(DB)

build: static
	$(GO) build -o siteplan .

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

static: $(VENDOR) $(BUNDLE)

static/vendor/htmx.min.js: node_modules/.package-lock.json
	cp node_modules/htmx.org/dist/htmx.min.js $@

static/vendor/htmx-ext-sse.min.js: node_modules/.package-lock.json
	cp node_modules/htmx-ext-sse/dist/sse.min.js $@

# The front end's modules in one file (static/dist/README.md).
$(BUNDLE): node_modules/.package-lock.json $(filter-out %.test.js,$(wildcard static/js/*.js))
	node_modules/.bin/esbuild static/js/main.js --bundle --format=esm --target=es2022 --log-level=warning --outfile=$@

generate:
	$(GO) tool templ generate

# The committed *_templ.go must match the .templ sources.
check-generated: generate
	git diff --exit-code -- '*_templ.go'

# Each fuzz test also runs a few seconds' worth of inputs beyond its seeds
# (PACKAGE/FuzzNAME:COUNT). The budgets are counts, not durations: Go 1.26's
# fuzz coordinator can fail a run with "context deadline exceeded" when a
# -fuzztime duration ends on a busy machine (go.dev/issue/75804).
FUZZ := site/FuzzNormalizeURL:100000x site/FuzzParseOutline:100000x site/FuzzParseDocument:10000x sitemap/FuzzPlan:20000x \
	sitemap/FuzzReadDocument:10000x sitemap/FuzzReadRoundTrip:10000x sitemap/FuzzReadCSV:10000x \
	sitemap/FuzzExportRoundTrip:10000x sitemap/FuzzExcerpts:10000x

# The house style, checked: gofmt, vet, staticcheck (pinned in go.mod's
# tool block), templ fmt and a tidy go.mod. The function budget is a test
# (layout_test.go).
lint:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './node_modules/*')); \
		if [ -n "$$out" ]; then echo "gofmt would rewrite:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) tool templ fmt -fail .
	$(GO) mod tidy -diff

# The API's contract, linted as Redocly lints it (its test in web checks
# the routes and the answers against it).
lint-api:
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --no-install redocly lint --format=stylish web/openapi.yaml

# The container image (deploy/image.sh): built without a registry, FROM
# scratch; test-image runs it where podman is installed.
image:
	deploy/image.sh build

test-image:
	@if command -v podman >/dev/null; then deploy/image.sh test; else echo "test-image: skipped (no podman: apt-get install podman runc)"; fi

test: static check-generated lint lint-api
	node --test --test-reporter=dot static/js/
	$(GO) test -count=1 -p 1 ./...
	SITEPLAN_TEST_BACKEND=postgres $(GO) test -count=1 -p 1 -skip '^TestBrowser' ./store ./jobs ./web
	SITEPLAN_TEST_BACKEND=postgres $(GO) test -count=1 -run '^(TestMigrateCLI|TestServeBehindABalancer)$$' ./cli
	for f in $(FUZZ); do t=$${f%%:*}; $(GO) test -run='^$$' -fuzz="^$${t#*/}\$$" -fuzztime=$${f##*:} ./$${t%%/*} || exit 1; done
	$(MAKE) --no-print-directory test-image

bench: static
	$(GO) test -p 1 -timeout 30m -run='^$$' -bench=. -benchmem ./...

# 50 logged-in users edit a 2,000-page plan for 60 s over loopback.
load: static
	$(GO) run ./cmd/loadtest -users 50 -duration 60s

# 200 users on four plans, on SQLite and then on a throwaway PostgreSQL
# with two instances (any request to either), one after the other.
load-postgres: static
	$(GO) run ./cmd/loadtest -users 200 -think 4s -duration 60s
	$(GO) run ./cmd/loadtest -users 200 -think 4s -duration 60s -postgres -instances 2

clean:
	rm -rf siteplan node_modules $(VENDOR) $(BUNDLE)

# The fallback fonts embedded in diagrams (see diagram/internal/fonts/README.md).
fonts:
	apt-get install -y --no-install-recommends fonts-droid-fallback fonts-symbola
	cp /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf diagram/internal/fonts/

# The same with 8 visitors pulling the heaviest reads of a 100,000-page
# plan through view links; the editors' p99 should stay under 100 ms.
# 500 participants take a tree test at once (each press p99 under 100 ms).
load-treetest: static
	$(GO) run ./cmd/loadtest -treetest 500

load-hostile: static
	$(GO) run ./cmd/loadtest -users 50 -duration 60s -hostile 8

# The requests that once hurt the server, re-run at their original sizes
# beside a timed editor of another team (cmd/loadtest/probes.go).
probes: static
	$(GO) run ./cmd/loadtest -probes
