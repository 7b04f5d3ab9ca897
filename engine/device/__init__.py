"""Device selection: which compute device (CPU or a GPU backend) runs the ONNX models, and why.

Importing this package loads no plugin and touches no GPU; everything that does is behind
`DeviceSelector.decision()`, called at the first real model use."""
