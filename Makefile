# Rockstep: build and test. `make test` is what CI runs (.ci/run).
GO ?= go
SHELL := /bin/bash

.PHONY: test check-tools vet test-race test-allocs test-386 test-arm64 test-wasm bench fuzz run generate build wasm

## test: everything CI checks, in order: tools, format and vet, the game for
## browsers (embedded: the browser tests load it), the race-enabled suite (UI
## tests under Xvfb), drawing's allocations without -race, the engine
## on 386, on arm64 under qemu and in WebAssembly under Node.js.
test: check-tools vet wasm test-race test-allocs test-386 test-arm64 test-wasm

## check-tools: what the tests need (gcc, make, git, xvfb-run with xauth,
## Mesa and xdotool, qemu-aarch64-static, ip, pulseaudio, and for the port mapping lab nft,
## miniupnpd, upnpc, natpmpc, Node.js for the wasm runner, and Chromium for the
## game in a browser tab): installed with apt-get where missing when
## run as root, saying so; otherwise named, with the command, and make stops.
check-tools:
	@GO='$(GO)' sh scripts/test-tools.sh

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change: $$out" >&2; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags noui ./cmd/...

## test-race: the whole suite with the race detector, in random order. The UI
## opens real windows, so it runs under a virtual X server. scripts/testreport
## prints what go test does, plus every skipped test with its reason and the
## slowest tests; TESTJSON=FILE keeps every test's timing in FILE. The ui
## package takes 8 to 9 minutes on a 2-core machine under load, close to go
## test's 10-minute default: -timeout leaves it room.
test-race:
	set -o pipefail; xvfb-run -a -s "-screen 0 1280x720x24" $(GO) test -race -shuffle=on -count=1 -timeout 25m -json ./... \
		| $(GO) run ./scripts/testreport $(if $(TESTJSON),-save '$(TESTJSON)')

## test-allocs: the allocations of drawing a frame (a practice game, and the
## standard scene in a network game with the graph), counted without -race (the
## race detector adds its own in Ebiten's drawing).
test-allocs:
	xvfb-run -a -s "-screen 0 1280x720x24" $(GO) test -count=1 -run '^(TestWindowScreenshot|TestFrameCost)$$' ./ui/

## test-386, test-arm64: the engine computes the same golden hashes on
## other architectures.
test-386:
	GOARCH=386 $(GO) test -count=1 ./game/...

test-arm64:
	GOARCH=arm64 $(GO) test -count=1 -exec qemu-aarch64-static ./game/...

## test-wasm: the same golden hashes in WebAssembly (GOOS=js, what a browser
## runs), with the Go distribution's wasm runner on Node.js.
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec "$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./game/...

## bench: the performance budget (docs/ARCHITECTURE.md): the benchmarks, checked
## against scripts/benchcheck/budgets.txt; fails if a figure is over its budget.
bench:
	@set -o pipefail; $(GO) test -run '^$$' -bench . -benchmem ./game/ ./net/lockstep/ ./net/room/ ./net/wire/ | $(GO) run ./scripts/benchcheck -budgets scripts/benchcheck/budgets.txt

## fuzz: every fuzz target in the repository, one after another, for
## FUZZTIME each (`make fuzz FUZZTIME=2m`). go test fuzzes one target of one
## package at a time, so the targets are found with grep.
FUZZTIME ?= 10s
fuzz:
	@set -e; for file in $$(grep -rl --include='*_test.go' --exclude-dir=.git '^func Fuzz' . | sort); do \
		for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$file); do \
			echo "$(GO) test -run '^$$' -fuzz '^$$target\$$' -fuzztime $(FUZZTIME) $$(dirname $$file)"; \
			$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $$(dirname $$file); \
		done; \
	done

generate:
	$(GO) generate ./...

## build: ./rockstep with the game for browser tabs embedded (wasm), which
## `rockstep -server -web ADDR` serves. A plain `go build` works too; its
## server's page then says how to build the game for browsers.
build: wasm
	$(GO) build -o rockstep ./cmd/rockstep

## wasm: the game built for WebAssembly (GOOS=js), gzipped, and the Go
## distribution's wasm_exec.js, into net/web/dist, which the next build of
## cmd/rockstep embeds.
wasm:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags=-s -o net/web/dist/rockstep.wasm ./cmd/rockstep
	gzip -9f net/web/dist/rockstep.wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" net/web/dist/wasm_exec.js

run:
	$(GO) run ./cmd/rockstep

## dist: the release artifacts in dist/: tarballs for linux/amd64 and arm64,
## a GUI .exe for windows/amd64, Rockstep.app zips for macOS arm64 and amd64,
## SHA256SUMS. Version from `git describe --tags --always --dirty`;
## `make dist VERSION=1.2.3` sets it. See scripts/dist.
.PHONY: dist dist-check
dist:
	$(GO) run ./scripts/dist -out dist $(if $(VERSION),-version '$(VERSION)')

## dist-check: make dist, then check every artifact's format, architecture
## and contents, and run the Linux build from its extracted tarball.
dist-check: dist
	ROCKSTEP_DIST='$(CURDIR)/dist' $(GO) test -count=1 -v -run 'Dist' ./packaging/
