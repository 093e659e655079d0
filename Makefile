PY ?= .venv/bin/python

.PHONY: check format lint types layers test bench

check: format lint types layers test

format:
	$(PY) -m ruff format --check .

lint:
	$(PY) -m ruff check .

types:
	$(PY) -m mypy core scheduler

layers:
	$(PY) -m importlinter.cli lint-imports || .venv/bin/lint-imports

test:
	$(PY) -m pytest

bench:
	$(PY) bench/run_all.py
