.PHONY: run test fuzz bench day soak lint check worker mutation board-load
run: ; bin/setup && .venv/bin/python manage.py runserver 127.0.0.1:8000
test: ; bin/setup --test && .venv/bin/python -m pytest -n auto --dist loadgroup
# The hostile-input and schema fuzz sweeps at their full budget: every value to every field as
# every persona, 50 generated requests per API operation (`make test` runs a fixed share).
fuzz: ; bin/setup --test && CARDROOM_FULL_SWEEPS=1 .venv/bin/python -m pytest -n auto tests/test_hostile_input.py tests/test_api_fuzz.py
bench: ; CARDROOM_UV_GROUPS="--group bench" bin/setup --test && .venv/bin/python bench/run.py
# A WSOP-sized day (bench/day.py): built, censused, then the production stack under its mix;
# ARGS="--full" for 700 tables and 10,000 entrants, ARGS="--seconds 120" for a longer load.
day: ; CARDROOM_UV_GROUPS="--group bench" bin/setup --test && .venv/bin/python bench/day.py $(ARGS)
soak: ; CARDROOM_UV_GROUPS="--group bench" bin/setup --test && .venv/bin/python bench/soak.py --minutes $(or $(MINUTES),60)
# The public board under 1,000 viewers polling every 5 s, cached and uncached (docs/board-load.md).
board-load: ; CARDROOM_UV_GROUPS="--group bench" bin/setup --test && .venv/bin/python bench/board_load.py
lint: ; .venv/bin/ruff check . && .venv/bin/lint-imports && .venv/bin/ruff format --check . && .venv/bin/mypy
worker: ; .venv/bin/celery -A cardroom worker -B --schedule=/tmp/cardroom-celerybeat --loglevel=info
# Mutation testing of the pure engine and draws with their pure tests ([tool.mutmut] in
# pyproject.toml; incremental: `rm -rf mutants` for a fresh run), then the survival rate.
mutation: ; bin/setup --test && nice .venv/bin/mutmut run --max-children $(or $(JOBS),2); .venv/bin/python bin/mutation_rate.py
