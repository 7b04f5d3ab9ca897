"""Developer tools that measure Paperlens; never imported by the app itself."""
