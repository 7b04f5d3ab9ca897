"""The formula recogniser: a small ResNet + transformer encoder over the image, and an
autoregressive transformer decoder over LaTeX tokens (PyTorch; training and export only).

Input: grey images of height 64 (ink bright on 0 background), width a multiple of 32 up to 1024.
The CNN reduces them 16x vertically and 8x horizontally to a 4 x W/8 grid of 256-d features; two
learned/sinusoidal position codes (row, column) are added before the encoder layers. The decoder
reads the grid through cross-attention. ``DecoderStep`` is the same decoder in incremental form
(self-attention keys/values cached, cross-attention keys/values computed once per image) for
ONNX export.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

HEIGHT = 64
WIDTH_STEP = 32
MAX_WIDTH = 1024


@dataclass(frozen=True)
class Config:
    vocab: int
    dim: int = 256
    heads: int = 8
    ffn: int = 1024
    encoder_layers: int = 3
    decoder_layers: int = 4
    max_tokens: int = 256
    channels: tuple[int, ...] = (48, 96, 160, 256)
    dropout: float = 0.1

    def to_dict(self) -> dict:
        return asdict(self)


class Block(nn.Module):
    def __init__(self, cin: int, cout: int, stride: tuple[int, int]):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.skip = None
        if stride != (1, 1) or cin != cout:
            self.skip = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.skip is None else self.skip(x)))


class Backbone(nn.Module):
    """64 x W -> 4 x W/8."""

    def __init__(self, channels: tuple[int, ...], dim: int):
        super().__init__()
        c1, c2, c3, c4 = channels
        self.stem = nn.Sequential(nn.Conv2d(1, c1, 3, 2, 1, bias=False), nn.BatchNorm2d(c1),
                                  nn.ReLU())                                  # 32 x W/2
        self.stages = nn.Sequential(
            Block(c1, c1, (1, 1)),
            Block(c1, c2, (2, 2)), Block(c2, c2, (1, 1)),                     # 16 x W/4
            Block(c2, c3, (2, 2)), Block(c3, c3, (1, 1)),                     # 8 x W/8
            Block(c3, c4, (2, 1)), Block(c4, c4, (1, 1)),                     # 4 x W/8
        )
        self.proj = nn.Conv2d(c4, dim, 1)

    def forward(self, x):
        return self.proj(self.stages(self.stem(x)))


def sinusoid(n: int, dim: int, device=None) -> torch.Tensor:
    pos = torch.arange(n, device=device, dtype=torch.float32)[:, None]
    freq = torch.exp(torch.arange(0, dim, 2, device=device, dtype=torch.float32)
                     * (-math.log(10000.0) / dim))
    table = torch.zeros(n, dim, device=device)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq)
    return table


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.out = nn.Linear(dim, dim)
        self.dropout = dropout

    def split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.heads, d // self.heads).transpose(1, 2)

    def keys_values(self, x):
        k, v = self.kv(x).chunk(2, dim=-1)
        return self.split(k), self.split(v)

    def attend(self, q, k, v, causal: bool):
        q = self.split(self.q(q))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                           dropout_p=self.dropout if self.training else 0.0)
        b, h, t, dh = y.shape
        return self.out(y.transpose(1, 2).reshape(b, t, h * dh))


class EncoderLayer(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.dim)
        self.attn = Attention(cfg.dim, cfg.heads, cfg.dropout)
        self.norm2 = nn.LayerNorm(cfg.dim)
        self.ffn = nn.Sequential(nn.Linear(cfg.dim, cfg.ffn), nn.GELU(), nn.Dropout(cfg.dropout),
                                 nn.Linear(cfg.ffn, cfg.dim))
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        h = self.norm1(x)
        k, v = self.attn.keys_values(h)
        x = x + self.drop(self.attn.attend(h, k, v, causal=False))
        return x + self.drop(self.ffn(self.norm2(x)))


class DecoderLayer(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.dim)
        self.self_attn = Attention(cfg.dim, cfg.heads, cfg.dropout)
        self.norm2 = nn.LayerNorm(cfg.dim)
        self.cross_attn = Attention(cfg.dim, cfg.heads, cfg.dropout)
        self.norm3 = nn.LayerNorm(cfg.dim)
        self.ffn = nn.Sequential(nn.Linear(cfg.dim, cfg.ffn), nn.GELU(), nn.Dropout(cfg.dropout),
                                 nn.Linear(cfg.ffn, cfg.dim))
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x, self_k, self_v, cross_k, cross_v, causal: bool):
        x = x + self.drop(self.self_attn.attend(self.norm1(x), self_k, self_v, causal=causal))
        x = x + self.drop(self.cross_attn.attend(self.norm2(x), cross_k, cross_v, causal=False))
        return x + self.drop(self.ffn(self.norm3(x)))


class FormulaModel(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.backbone = Backbone(cfg.channels, cfg.dim)
        self.row = nn.Parameter(torch.zeros(HEIGHT // 16, cfg.dim))
        self.encoder = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.encoder_layers))
        self.encoder_norm = nn.LayerNorm(cfg.dim)
        self.embed = nn.Embedding(cfg.vocab, cfg.dim)
        self.positions = nn.Parameter(torch.zeros(cfg.max_tokens, cfg.dim))
        self.decoder = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.decoder_layers))
        self.decoder_norm = nn.LayerNorm(cfg.dim)
        nn.init.normal_(self.row, std=0.02)
        nn.init.normal_(self.positions, std=0.02)
        nn.init.normal_(self.embed.weight, std=0.02)

    def encode(self, images):
        """images [B,1,64,W] -> memory [B, 4*W/8, dim]."""
        f = self.backbone(images)                                   # B, D, 4, W/8
        b, d, h, w = f.shape
        f = f + self.row[:h].T[None, :, :, None] + sinusoid(w, d, f.device).T[None, :, None, :]
        x = f.flatten(2).transpose(1, 2)
        for layer in self.encoder:
            x = layer(x)
        return self.encoder_norm(x)

    def cross_keys_values(self, memory):
        return [layer.cross_attn.keys_values(memory) for layer in self.decoder]

    def logits(self, x):
        return self.decoder_norm(x) @ self.embed.weight.T

    def forward(self, images, tokens):
        """Teacher-forced logits [B, T, vocab] for input tokens [B, T] (starting with <bos>)."""
        memory = self.encode(images)
        t = tokens.shape[1]
        x = self.embed(tokens) * math.sqrt(self.cfg.dim) + self.positions[:t]
        for layer, (ck, cv) in zip(self.decoder, self.cross_keys_values(memory)):
            k, v = layer.self_attn.keys_values(layer.norm1(x))
            x = layer(x, k, v, ck, cv, causal=True)
        return self.logits(x)


class EncoderExport(nn.Module):
    """image -> cross-attention keys/values of every decoder layer (computed once per image)."""

    def __init__(self, model: FormulaModel):
        super().__init__()
        self.model = model

    def forward(self, images):
        kv = self.model.cross_keys_values(self.model.encode(images))
        return tuple(t for pair in kv for t in pair)


class DecoderStep(nn.Module):
    """One decoding step with a key/value cache: (token, step, past, cross) -> (logits, present)."""

    def __init__(self, model: FormulaModel):
        super().__init__()
        self.model = model

    def forward(self, token, step, *caches):
        m = self.model
        n = len(m.decoder)
        past, cross = caches[:2 * n], caches[2 * n:]
        x = m.embed(token) * math.sqrt(m.cfg.dim) + m.positions[step][:, None, :].transpose(0, 1)
        present = []
        for i, layer in enumerate(m.decoder):
            k_new, v_new = layer.self_attn.keys_values(layer.norm1(x))
            k = torch.cat([past[2 * i], k_new], dim=2)
            v = torch.cat([past[2 * i + 1], v_new], dim=2)
            present += [k, v]
            x = layer(x, k, v, cross[2 * i], cross[2 * i + 1], causal=False)
        return (m.logits(x)[:, -1], *present)


def load_weights(path: Path) -> tuple[FormulaModel, list[str], dict]:
    """Reads ``weights-ema-{0,1}.pt`` (or a single ``weights-ema.pt``) from a run folder."""
    parts = sorted(path.glob("weights-ema-*.pt")) if path.is_dir() else [path]
    state: dict = {}
    meta: dict = {}
    for part in parts:
        blob = torch.load(part, map_location="cpu")
        state.update(blob["weights"])
        meta = {k: v for k, v in blob.items() if k != "weights"}
    cfg = Config(**{**meta["config"], "channels": tuple(meta["config"]["channels"])})
    model = FormulaModel(cfg)
    model.load_state_dict({k: v.float() if v.is_floating_point() else v
                           for k, v in state.items()})
    return model.eval(), meta["vocab"], meta


def carry_weights(model: FormulaModel, vocab: list[str], source: FormulaModel,
                  source_vocab: list[str]) -> int:
    """Starts `model` from a trained `source` of the same shape: every tensor is copied, and the
    token embedding row by row for the tokens both vocabularies hold (a new token keeps its
    random start). Returns how many tokens were carried over."""
    own = model.state_dict()
    theirs = source.state_dict()
    for name, tensor in theirs.items():
        if name != "embed.weight":
            own[name].copy_(tensor)
    rows = {token: i for i, token in enumerate(source_vocab)}
    carried = [(i, rows[token]) for i, token in enumerate(vocab) if token in rows]
    for mine, their in carried:
        own["embed.weight"][mine] = theirs["embed.weight"][their]
    model.load_state_dict(own)
    return len(carried)


def config_like(source: FormulaModel, vocab: list[str]) -> Config:
    """The source model's configuration for a vocabulary of this size."""
    return replace(source.cfg, vocab=len(vocab))
