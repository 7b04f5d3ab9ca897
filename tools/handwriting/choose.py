"""`python -m tools.handwriting choose --seed 1`: how the detector's weights and threshold were
chosen, printed as the constants engine/ocr/handwriting.py holds.

A logistic regression (Newton's method, a little L2) over the page measures of the chosen
seed's generated pages and the structure set's scans; the threshold is the lowest half-step on
the log-odds scale above every print page of that set. The dev set is never used to choose,
only to check (`evaluate`)."""

from __future__ import annotations

import numpy as np

from engine.ocr.handwriting import HandwritingEvidence, measures

L2 = 0.1
THRESHOLD_STEP = 0.5


def _matrix(rows: list[dict]) -> tuple[list[str], np.ndarray, np.ndarray]:
    values = [measures(HandwritingEvidence(**r["evidence"])) for r in rows]
    names = list(values[0])
    x = np.array([[v[n] for n in names] for v in values], float)
    y = np.array([r["handwriting"] for r in rows], float)
    return names, x, y


def fit(rows: list[dict]) -> tuple[dict[str, float], float]:
    """Weights on the raw measures and the bias."""
    names, x, y = _matrix(rows)
    centre, scale = x.mean(axis=0), x.std(axis=0) + 1e-12
    a = np.hstack([(x - centre) / scale, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    penalty = L2 * np.diag(np.r_[np.ones(len(names)), 0.0])
    for _ in range(100):
        p = 1 / (1 + np.exp(-a @ w))
        gradient = a.T @ (p - y) + penalty @ w
        hessian = a.T @ (a * (p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    weights = w[:-1] / scale
    bias = float(w[-1] - (weights * centre).sum())
    return dict(zip(names, map(float, weights))), bias


def scores(rows: list[dict], weights: dict[str, float], bias: float) -> np.ndarray:
    names, x, _ = _matrix(rows)
    return bias + x @ np.array([weights[n] for n in names])


def precision_recall(labels: np.ndarray, flagged: np.ndarray) -> tuple[float, float]:
    tp = float((flagged & (labels == 1)).sum())
    fp = float((flagged & (labels == 0)).sum())
    return (tp / (tp + fp) if tp + fp else 1.0), tp / max(float(labels.sum()), 1.0)


def report(rows: list[dict]) -> None:
    rows = [r for r in rows if r["group"] != "dev" and r["evidence"] is not None]
    weights, bias = fit(rows)
    _, _, labels = _matrix(rows)
    score = scores(rows, weights, bias)
    threshold = THRESHOLD_STEP * (np.floor(score[labels == 0].max() / THRESHOLD_STEP) + 1)
    print(f"fitted on {len(rows)} measured pages ({int(labels.sum())} handwriting)")
    print("WEIGHTS = {" + ", ".join(f'"{n}": {w:.2f}' for n, w in weights.items()) + "}")
    print(f"BIAS = {bias:.2f}")
    print(f"HANDWRITING_MIN = {threshold:.1f}")
    for t in (threshold - 1, threshold - THRESHOLD_STEP, threshold, threshold + 1):
        p, r = precision_recall(labels, score > t)
        print(f"  above {t:.1f}: precision {p:.3f} recall {r:.3f}")
