"""Training pipeline of Paperlens's own formula recogniser (training-only; the app never imports it)."""
