"""A generated scan for the export tests and benchmark: pages drawn from Chinese text we wrote,
rasterised like a scanner would, with the true box of every character kept."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pymupdf

SCAN_DPI = 200
# Our own text: a short report in Chinese with Latin words and numbers mixed in, one heading
# per page. Lines are set one by one, so each line of the page is one line of this list.
CHINESE_PAGES = (
    ("第一章 项目概述", (
        "本报告介绍一个在本地运行的文档识别工具的测试结果。",
        "工具把扫描的页面转换为可以搜索和编辑的文本，",
        "并保留标题、段落、表格与公式的结构。",
        "测试使用了三类材料：合同、课本和会议记录。",
        "在每一类材料中，我们各选取二十页进行识别，",
        "并由两位同事分别核对识别结果与原文的差异。",
        "Version 2.4 的平均准确率为 98.6%，",
        "比上一版本提高了 1.2 个百分点。",
    )),
    ("第二章 测试方法", (
        "每一页先以每英寸两百点的分辨率扫描，",
        "再交给识别程序处理，不做任何人工修正。",
        "核对时逐字比较，标点符号的差异也计入错误。",
        "对于表格，我们检查每个单元格的位置和内容；",
        "对于公式，我们检查符号是否完整、顺序是否正确。",
        "所有结果都保存在同一个文件夹中，便于复查。",
    )),
    ("第三章 结论与建议", (
        "识别质量已经可以满足日常办公的需要。",
        "对于手写批注和印章，仍然需要人工确认。",
        "我们建议在下一阶段加入更多的竖排古籍样本，",
        "并把 OCR 结果导出为 PDF、Word 和 Excel 文件。",
        "联系人：王小明，电话 010-12345678。",
    )),
)
HEADING_PT = 20
BODY_PT = 13
LEFT_PT = 72
TOP_PT = 96
LINE_GAP_PT = 26


@dataclass(frozen=True)
class TrueChar:
    char: str
    box: tuple[float, float, float, float]
    """In PDF points of the page (top-left origin)."""


@dataclass(frozen=True)
class ScanPage:
    lines: tuple[tuple[TrueChar, ...], ...]
    image: np.ndarray
    """The page as scanned: greyscale uint8 at SCAN_DPI."""


def chinese_text() -> str:
    """The generated document's text, a line per line."""
    return "\n".join(line for heading, lines in CHINESE_PAGES for line in (heading, *lines))


def _draw_pages(pages) -> pymupdf.Document:
    font = pymupdf.Font("cjk")
    document = pymupdf.open()
    for heading, lines in pages:
        page = document.new_page(width=595, height=842)
        page.insert_font(fontname="cjk", fontbuffer=font.buffer)
        page.insert_text((LEFT_PT, TOP_PT), heading, fontname="cjk", fontsize=HEADING_PT)
        y = TOP_PT + 2 * LINE_GAP_PT
        for line in lines:
            page.insert_text((LEFT_PT, y), line, fontname="cjk", fontsize=BODY_PT)
            y += LINE_GAP_PT
    return document


def _true_lines(page: pymupdf.Page) -> tuple[tuple[TrueChar, ...], ...]:
    lines = []
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", ()):
            chars = tuple(TrueChar(c["c"], tuple(c["bbox"])) for span in line["spans"]
                          for c in span["chars"])
            if chars:
                lines.append(chars)
    return tuple(lines)


def write_chinese_scan(path: Path, seed: int = 7, pages=CHINESE_PAGES) -> list[ScanPage]:
    """An image-only PDF of `pages` (all of CHINESE_PAGES unless told): each page rendered at
    SCAN_DPI in grey, with sensor noise and a slight blur, stored as a JPEG (as scanners do).
    Returns the truth."""
    rng = np.random.default_rng(seed)
    drawn = _draw_pages(pages)
    scan = pymupdf.open()
    truth: list[ScanPage] = []
    for page in drawn:
        pix = page.get_pixmap(dpi=SCAN_DPI, colorspace=pymupdf.csGRAY)
        grey = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width).copy()
        noisy = cv2.GaussianBlur(grey, (3, 3), 0.6).astype(np.float32)
        noisy += rng.normal(0, 6, noisy.shape)
        image = np.clip(noisy, 0, 255).astype(np.uint8)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        assert ok
        target = scan.new_page(width=page.rect.width, height=page.rect.height)
        target.insert_image(target.rect, stream=jpeg.tobytes())
        truth.append(ScanPage(_true_lines(page), image))
    scan.save(str(path), garbage=3, deflate=True)
    return truth


def ink_box(page: ScanPage, box_pt: tuple[float, float, float, float]
            ) -> tuple[float, float, float, float] | None:
    """The box (in points) of the dark pixels inside `box_pt` on the scanned page."""
    scale = SCAN_DPI / 72
    x0, y0, x1, y1 = (int(round(v * scale)) for v in box_pt)
    region = page.image[max(0, y0):y1, max(0, x0):x1]
    ys, xs = np.nonzero(region < 128)
    if xs.size == 0:
        return None
    return ((max(0, x0) + xs.min()) / scale, (max(0, y0) + ys.min()) / scale,
            (max(0, x0) + xs.max() + 1) / scale, (max(0, y0) + ys.max() + 1) / scale)


def iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union
