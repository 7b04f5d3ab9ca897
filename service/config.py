"""What one server run is allowed to do: where it listens and keeps its data, its workers (or
the Ray cluster that reads its pages), and every limit it enforces. Built once from the command
line, then frozen."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MIB = 2**20
DEFAULT_PORT = 8750


@dataclass(frozen=True)
class ServiceConfig:
    data_dir: Path
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    workers: int = 1
    token: str | None = None
    allow_dirs: tuple[Path, ...] = ()
    """Folders whose files a job may name by path (`paths` field); none by default."""
    max_upload_bytes: int = 100 * MIB
    """One POST /v1/jobs request, all its files together."""
    max_pages: int = 2000
    """Pages of one job, all its files together."""
    sync_max_bytes: int = 10 * MIB
    sync_max_pages: int = 4
    sync_timeout_s: float = 120.0
    queue_size: int = 64
    """Jobs waiting or running; the next one is answered 429 with Retry-After."""
    retention_s: float = 24 * 3600.0
    """How long a finished job's results are kept after it ended."""
    quota_bytes: int = 10 * 1024 * MIB
    """What all jobs together may keep on disk."""
    min_free_bytes: int = 256 * MIB
    """Uploads are refused when the disk would have less than this left."""
    max_crashes: int = 2
    """A page that stops a worker process this many times is a failed page."""
    ray_address: str | None = None
    """Pages read on this Ray cluster (host:port of its head) instead of local workers."""
    cluster_workers: int | None = None
    """Page workers started on the cluster; None: one per CPU the cluster has."""

    @property
    def sync_queue_size(self) -> int:
        return max(2, 2 * self.workers)

    @property
    def cleanup_interval_s(self) -> float:
        return max(0.5, min(60.0, self.retention_s / 4))

    def limits_json(self) -> dict[str, object]:
        return {"max_upload_bytes": self.max_upload_bytes, "max_pages": self.max_pages,
                "ocr_max_bytes": self.sync_max_bytes, "ocr_max_pages": self.sync_max_pages,
                "ocr_timeout_s": self.sync_timeout_s, "queue_size": self.queue_size,
                "retention_s": self.retention_s, "disk_quota_bytes": self.quota_bytes,
                "workers": self.workers, "server_paths": bool(self.allow_dirs),
                "ray_address": self.ray_address}
