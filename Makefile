# The front door. Every target installs and builds what it needs first, so each works on a fresh clone.
SHELL := /bin/bash
NODE_BIN := node_modules/.bin

.PHONY: install build typecheck test stack clean

# npm ci only when the lockfile changed since the last install.
node_modules/.svc-installed: package-lock.json
	npm ci
	@touch $@

install: node_modules/.svc-installed

build: install
	$(NODE_BIN)/tsc -b

typecheck: build
	npm run typecheck --silent

test: typecheck
	$(NODE_BIN)/vitest run

stack: build
	node anvil-fixtures/dist/bin/stack.js

clean:
	rm -rf node_modules */node_modules */dist .stack .cache
