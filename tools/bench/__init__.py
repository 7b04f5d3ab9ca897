"""Speed benchmark of Paperlens: per-stage wall times against pure ONNX inference, per document."""
