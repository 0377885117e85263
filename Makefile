# scholargraph — the two commands that matter: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
DEMO_PAPERS ?= 2000
PYTEST_ARGS ?=

.PHONY: install web neo4j run test check lint format typecheck bench bench-load bench-extras bench-api bench-scale clean stop dist

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

## install: virtual env, Python packages, Node packages and the page, Neo4j jars from Maven Central, Chromium for the browser tests
install: $(VENV)/.installed node_modules/.installed web
	$(BIN)/scholargraph neo4j install
	command -v chromium || (apt-get update && apt-get install -y chromium)

## web: bundle the researcher-network page (web/) into api/web/dist with esbuild
web: node_modules/.installed
	npm run build:web

## run: start the local Neo4j, load the demo corpus, serve the API and page on :8000
run: install
	$(BIN)/scholargraph neo4j start
	$(BIN)/scholargraph db init
	$(BIN)/scholargraph demo --papers $(DEMO_PAPERS)
	$(BIN)/scholargraph db stats
	$(BIN)/scholargraph serve --host $(HOST) --port $(PORT)

## stop: stop the local Neo4j
stop:
	$(BIN)/scholargraph neo4j stop

## test: the whole suite against a real Neo4j the test session starts
test: install
	$(BIN)/pytest $(PYTEST_ARGS)

## check: format, lint, types (Python and the page's TypeScript), then the tests
check: lint typecheck test

## dist: the page bundle, then the sdist and the wheel (both carry the bundle) in dist/
dist: $(VENV)/.installed web
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

## lint: ruff (format and rules), then graphql-schema-linter on the committed api/schema.graphql
lint: $(VENV)/.installed node_modules/.installed
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	npm run lint:schema

format: $(VENV)/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: $(VENV)/.installed node_modules/.installed
	$(BIN)/mypy
	npm run check:web

## bench: benchmarks, figures written to BENCHMARKS.md
bench: install
	$(BIN)/python -m benchmarks.run

## bench-extras: only the standalone benchmarks (benchmarks/extras.py), beside the last full run
bench-extras: install
	$(BIN)/python -m benchmarks.run --extras-only

## bench-load: only the loading figures (ours with and without embedding, the floor, neomodel), beside the last full run
bench-load: install
	$(BIN)/python -m benchmarks.run --load-only

## bench-api: only the API and site figures, on the largest size loaded once by our pipeline, beside the last full run
bench-api: install
	$(BIN)/python -m benchmarks.run --api-only

## bench-scale: the four-source demo load at SCALE_SIZES papers, each on a fresh store with the memory plan; figures to BENCHMARKS.md
SCALE_SIZES ?= 100k,300k,1M,2.7M
SCALE_MINUTES ?= 600
bench-scale: install
	$(BIN)/python -m benchmarks.bench_scale --sizes $(SCALE_SIZES) --max-minutes $(SCALE_MINUTES)

clean:
	rm -rf $(VENV) .scholargraph .neo4j .cache api/web/dist dist node_modules .mypy_cache .ruff_cache .pytest_cache
