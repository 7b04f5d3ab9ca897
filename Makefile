# The two commands: `make run` and `make test`. Everything else is for developers.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.paperlens-installed

.PHONY: run test test-fast eval bench peers sysdeps models installers clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(STAMP)
	$(BIN)/paperlens

sysdeps:
	@tools/system_deps.sh

# The default models are fetched (and verified) once into the user cache; a no-op when present.
models: $(STAMP)
	$(BIN)/paperlens-cli models fetch

test: $(STAMP) sysdeps models
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

test-fast: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m "not model and not network and not slow"

eval: $(STAMP)
	$(BIN)/python -m tools.eval

# Engine speed per stage, then the peers on the same documents (installed on demand).
bench: $(STAMP)
	$(BIN)/python -m tools.bench
	$(BIN)/python -m tools.peers

# RapidOCR, Tesseract and pymupdf4llm on the same documents (installed on demand, never into .venv).
peers: $(STAMP)
	$(BIN)/python -m tools.peers

clean:
	rm -rf $(VENV) build *.egg-info

# Linux x86_64: dist/paperlens_<version>_amd64.deb and a portable .tar.gz of the same frozen
# folder (default models inside), built in build/installers-venv from the versions pinned in
# installers/constraints.txt. Check them with `.venv/bin/python -m pytest -m installers`.
installers:
	$(PYTHON) installers/build.py --python $(PYTHON)
