# The two commands: `make run` and `make test`. Everything else is for developers.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.paperlens-installed

.PHONY: run test test-cluster test-calibration test-fast eval bench peers readme-tables sysdeps models installers clean \
	formula-sysdeps formula-deps formula-corpus formula-renders formula-train formula-finetune formula-export

# Debian and Ubuntu ship venv separately (python3-venv): installed when root, else named.
$(BIN)/python:
	@$(PYTHON) -c 'import ensurepip' 2>/dev/null || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get install -y -q python3-venv; \
		else echo "Paperlens needs Python's venv module: sudo apt-get install python3-venv"; exit 1; fi; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,service,mcp,ocrmypdf]'
	touch $@

# The libraries Qt needs to open a window are checked first (installed when root, else the apt
# command is printed). ARGS goes to the app: `make run ARGS="--screenshot=/tmp/window.png"`.
run: $(STAMP)
	@tools/system_deps.sh app
	$(BIN)/paperlens $(ARGS)

sysdeps:
	@tools/system_deps.sh

# The default models are fetched (and verified) once into the user cache; a no-op when present.
models: $(STAMP)
	$(BIN)/paperlens-cli models fetch

# The two-node Ray tests are left to `make test-cluster` (Ray adds 250 MB and each test starts
# two nodes); CI runs both.
test: $(STAMP) sysdeps models
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m "not cluster and not calibration"

# Whole `auto` calibrations on lavapipe, whose GPU timings are CPU timings: about 20 s each on a
# quiet machine, minutes on a busy one (a measurement too noisy to trust is taken again), so they
# are kept out of `make test`; CI runs them.
test-calibration: $(STAMP) sysdeps models
	$(BIN)/python -m pytest tests/gpu -m calibration

test-cluster: $(STAMP) models
	$(BIN)/python -m pip install --quiet -e '.[test,service,cluster]'
	$(BIN)/python -m pytest tests/cluster tests/service/test_service_ray_option.py -m cluster

test-fast: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m "not model and not network and not slow"

# The dev set through the CLI, then the formula recogniser on the formula set (../shared/eval/formula).
eval: $(STAMP)
	$(BIN)/python -m tools.eval
	$(BIN)/python -m tools.eval formula

# Engine speed per stage, what inline math costs, what the photo steps cost (on a flat scan, on
# photos), what reading every script costs against Tesseract, then the peers on the same
# documents (installed on demand); each writes docs/results/ (bench.json, mathset_bench.json,
# photos_bench.json, scripts_bench.json, peers.json), from which the README's tables are
# regenerated.
bench: $(STAMP)
	$(BIN)/python -m tools.bench
	$(BIN)/python -m tools.mathset --bench
	$(BIN)/python -m tools.photos --bench
	$(BIN)/python -m tools.scripts.bench
	$(BIN)/python -m tools.peers
	$(BIN)/python -m tools.readme_tables

# RapidOCR, Tesseract and pymupdf4llm on the same documents (installed on demand, never into .venv).
peers: $(STAMP)
	$(BIN)/python -m tools.peers
	$(BIN)/python -m tools.readme_tables

# The README's speed and peers tables from docs/results/*.json (bench and peers run it too).
readme-tables: $(STAMP)
	$(BIN)/python -m tools.readme_tables

clean:
	rm -rf $(VENV) build *.egg-info

# Linux x86_64: dist/paperlens_<version>_amd64.deb and a portable .tar.gz of the same frozen
# folder (default models inside), built in build/installers-venv from the versions pinned in
# installers/constraints.txt. Check them with `.venv/bin/python -m pytest -m installers`.
installers:
	$(PYTHON) installers/build.py --python $(PYTHON)

# Training the formula recogniser (tools/formula/README.md); not needed to run or test the app.
FORMULA := build/formula
MINUTES ?= 60
PACK_MIB ?= 40
INIT ?=

formula-sysdeps:
	apt-get install -y texlive-latex-base texlive-latex-recommended texlive-latex-extra \
		texlive-fonts-recommended texlive-fonts-extra dvipng

formula-deps: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,train]'

formula-corpus: $(STAMP)
	$(BIN)/python -m tools.formula.corpus

formula-renders: formula-corpus
	$(BIN)/python -m tools.formula.render --count 130000
	$(BIN)/python -m tools.formula.render --count 1024 --split val --seed 7 --out $(FORMULA)/renders-val
	$(BIN)/python -m tools.formula.render --structures 2 --seed 11 --out $(FORMULA)/renders-structures
	$(BIN)/python -m tools.formula.render --renderer katex --count 16000 --seed 31 \
		--out $(FORMULA)/renders-katex
	$(BIN)/python -m tools.formula.render --renderer katex --count 512 --split val --seed 8 \
		--out $(FORMULA)/renders-katex-val
	$(BIN)/python -m tools.formula.pack --budget-mib $(PACK_MIB) --renders \
		$(FORMULA)/renders-katex $(FORMULA)/renders-structures $(FORMULA)/renders
	$(BIN)/python -m tools.formula.pack --renders $(FORMULA)/renders-val \
		$(FORMULA)/renders-katex-val --out $(FORMULA)/pack-val

formula-train:
	$(BIN)/python -m tools.formula.train --data $(FORMULA)/pack --val $(FORMULA)/pack-val \
		--out $(FORMULA)/run --minutes $(MINUTES) $(if $(INIT),--init $(INIT))

# Fine-tuning the shipped model on this machine's CPU (tools/formula/README.md, "On a CPU").
formula-finetune:
	$(BIN)/python -m tools.formula.train --data $(FORMULA)/pack --val $(FORMULA)/pack-val \
		--out $(FORMULA)/run --minutes $(MINUTES) --init resources/formula --lr 1.5e-4 \
		--warmup 100 --max-batch 32 --freeze-backbone --dropout 0 --cpu-bf16 --save-every 300

formula-export:
	$(BIN)/python -m tools.formula.export --weights $(FORMULA)/run
