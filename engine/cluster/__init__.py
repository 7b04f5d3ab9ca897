"""Converting documents on a Ray cluster: page workers that each hold one Engine read page
ranges; the driver gathers each document's pages and assembles and writes it exactly as a
single process does (engine.recipe.assemble_document).

ledger.py   which pages wait, run, are read or given up on (no Ray: plain bookkeeping)
worker.py   the page worker (a Ray actor): one Engine, models loaded once, documents cached
pool.py     connecting to Ray, starting the workers, sending tasks, noticing lost workers
driver.py   Cluster: documents in, results out in input order, progress as in the CLI

Ray is an optional dependency (the `cluster` extra); it is imported only when a cluster is
used, so every module here imports without it."""
