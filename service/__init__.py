"""paperlens-serve: a local HTTP service over the engine, with jobs that survive a restart."""
