# The front door. Every target installs and builds what it needs first, so each works on a fresh clone.
SHELL := /bin/bash
NODE_BIN := node_modules/.bin

.PHONY: install tools build typecheck lint format test e2e demo demo-cluster demo-tui stack bench profile clean install-commands

# npm ci only when the lockfile changed since the last install.
node_modules/.svc-installed: package-lock.json
	npm ci
	@touch $@

install: node_modules/.svc-installed

# After compiling, both CLIs render their help pages once (dist/helpPages.json), so `--help` starts quickly.
build: install
	$(NODE_BIN)/tsc -b
	@node agent/dist/commands/writeHelpPages.js >/dev/null
	@node facilitator/dist/commands/writeHelpPages.js >/dev/null

typecheck: build
	npm run typecheck --silent

# Biome: the formatter's check and the linter (biome.json); `make format` rewrites the tree in the house format.
lint: install
	$(NODE_BIN)/biome ci .

format: install
	$(NODE_BIN)/biome format --write .

# promtool checks the alert rules in facilitator/alerts; Debian's prometheus package has it (root, or sudo).
# chromium renders the operator page in a headless browser test (facilitator/src/http/operatorPage.test.ts).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
tools:
	@command -v promtool >/dev/null || $(SUDO) apt-get install -y --no-install-recommends prometheus >/dev/null \
		|| { $(SUDO) apt-get update >/dev/null && $(SUDO) apt-get install -y --no-install-recommends prometheus >/dev/null; }
	@command -v chromium >/dev/null || $(SUDO) apt-get install -y --no-install-recommends chromium >/dev/null \
		|| { $(SUDO) apt-get update >/dev/null && $(SUDO) apt-get install -y --no-install-recommends chromium >/dev/null; }

test: typecheck lint tools
	$(NODE_BIN)/vitest run

e2e: build
	$(NODE_BIN)/vitest run --project e2e

demo: build
	node e2e/dist/demo/demo.js

demo-cluster: build
	node e2e/dist/demo/demoCluster.js

demo-tui: build
	node e2e/dist/demo/demoTui.js

# The local stack in the foreground: STACK_PROTOCOL=v1|v2 (default v2), STACK_PROVER=fixture|groth16 (default
# fixture; groth16: real single-teleport proofs, the facilitator proving them with snarkjs), STACK_*_PORT, STACK_DIR.
stack: build
	node anvil-fixtures/dist/bin/stack.js

# Side by side with the official x402 exact scheme on one local stack, plus the privacy section and finalize
# with real Groth16 proofs on a stack of their own; writes bench/results.md (about six minutes).
bench: build
	node bench/dist/run.js

# Our facilitator under `node --cpu-prof` per path (permit and self-transfer paid requests, /challenge): flame
# graphs and the top self-time frames in bench/profiles/$(PROFILE_LABEL)/ (default latest; about half a minute).
profile: build
	node bench/dist/runProfile.js

# The installed commands `svc-agent` and `svc-facilitator` (wrappers in bin/), linked into BIN_DIR (default
# ~/.local/bin). Without this target, `export PATH="$PWD/bin:$PATH"` from the repository root does the same.
BIN_DIR ?= $(HOME)/.local/bin
install-commands: build
	mkdir -p "$(BIN_DIR)"
	ln -sf "$(CURDIR)/bin/svc-agent" "$(BIN_DIR)/svc-agent"
	ln -sf "$(CURDIR)/bin/svc-facilitator" "$(BIN_DIR)/svc-facilitator"
	@echo "svc-agent and svc-facilitator are linked into $(BIN_DIR); that folder must be on PATH"

clean:
	rm -rf node_modules */node_modules */dist .stack .cache
