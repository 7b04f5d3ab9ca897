"""Training-time augmentation of formula images on the training device: resampling to low
resolution, small rotation/shear/scale, stroke thickening and thinning, blur, contrast and
background changes, low-frequency texture, noise, grey-level quantisation."""

from __future__ import annotations

import math
import random

import torch
import torch.nn.functional as F


def augment(pixels: torch.Tensor, widths: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """uint8 ink [B,H,W] -> float [B,1,H,W] in 0..1, made to look like crops of real pages."""
    x = pixels.float().div_(255).unsqueeze(1)
    b, _, h, w = x.shape
    dev = x.device

    def u(lo, hi, *shape):
        return torch.rand(*(shape or (b,)), device=dev, generator=gen) * (hi - lo) + lo

    def chance(p):
        return (torch.rand(b, device=dev, generator=gen) < p).float().view(b, 1, 1, 1)

    # Shift the formula right inside its padding, and geometric jitter.
    slack = (w - widths).clamp(min=0).float()
    shift = torch.rand(b, device=dev, generator=gen) * slack * 0.5
    angle = u(-1.5, 1.5) * math.pi / 180 * (torch.rand(b, device=dev, generator=gen) < 0.5)
    shear = u(-0.12, 0.12) * (torch.rand(b, device=dev, generator=gen) < 0.3)
    scale = u(0.9, 1.06)
    theta = torch.zeros(b, 2, 3, device=dev)
    theta[:, 0, 0] = torch.cos(angle) / scale
    theta[:, 0, 1] = (-torch.sin(angle) + shear) * h / w / scale
    theta[:, 1, 0] = torch.sin(angle) * w / h / scale
    theta[:, 1, 1] = torch.cos(angle) / scale
    theta[:, 0, 2] = -2 * shift / w
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    # Stroke weight.
    thick = F.max_pool2d(x, 3, 1, 1)
    thin = -F.max_pool2d(-x, 3, 1, 1)
    x = x + chance(0.15) * (0.6 * thick + 0.4 * x - x) + chance(0.12) * (0.5 * thin + 0.5 * x - x)
    # Low resolution: the whole batch down to a random scale and back.
    if random.random() < 0.5:
        f = random.uniform(0.3, 0.85)
        small = F.interpolate(x, scale_factor=f, mode="area")
        x = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    # Blur.
    if random.random() < 0.3:
        sigma = random.uniform(0.4, 1.2)
        k = torch.arange(-2, 3, device=dev, dtype=torch.float32)
        k = torch.exp(-k ** 2 / (2 * sigma ** 2))
        k = k / k.sum()
        x = F.conv2d(x, k.view(1, 1, 1, 5), padding=(0, 2))
        x = F.conv2d(x, k.view(1, 1, 5, 1), padding=(2, 0))
    # Contrast, background level and texture, noise.
    ink = u(0.55, 1.0).view(b, 1, 1, 1)
    back = u(0.0, 0.18).view(b, 1, 1, 1) * chance(0.4)
    x = back + x * (ink - back)
    texture = F.interpolate(torch.rand(b, 1, max(1, h // 16), max(1, w // 16), device=dev,
                                       generator=gen), size=(h, w), mode="bilinear",
                            align_corners=False)
    x = x + chance(0.3) * texture * u(0.0, 0.12).view(b, 1, 1, 1)
    x = x + chance(0.5) * torch.randn(x.shape, device=dev, generator=gen) * u(0.0, 0.06).view(
        b, 1, 1, 1)
    x = x.clamp(0, 1)
    q = chance(0.15)
    x = q * torch.round(x * 7) / 7 + (1 - q) * x
    return x
