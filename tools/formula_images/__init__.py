"""A generated, labelled set of image inputs of two kinds, formulas and screenshots of text, for
choosing and checking the rule that reads an image input as one formula (engine/formulas/stage.py,
ADR 0005). `python -m tools.formula_images generate` writes it, `... measure` scores the rule on it
through the real Engine."""
