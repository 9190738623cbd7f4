.PHONY: run test bench soak lint check worker
run: ; bin/setup && .venv/bin/python manage.py runserver 127.0.0.1:8000
test: ; bin/setup --test && .venv/bin/python -m pytest
bench: ; CARDROOM_UV_GROUPS="--group bench" bin/setup --test && .venv/bin/python bench/run.py
soak: ; CARDROOM_UV_GROUPS="--group bench" bin/setup --test && .venv/bin/python bench/soak.py --minutes $(or $(MINUTES),60)
lint: ; .venv/bin/ruff check . && .venv/bin/lint-imports && .venv/bin/ruff format --check . && .venv/bin/mypy
worker: ; .venv/bin/celery -A cardroom worker -B --schedule=/tmp/cardroom-celerybeat --loglevel=info
