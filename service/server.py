"""One server run: the data folder taken (one server per folder), the job table recovered,
the workers started, then uvicorn until SIGINT or SIGTERM."""

from __future__ import annotations

import logging
import os
import sys

import uvicorn
from filelock import FileLock, Timeout

from service.app import Service, create_app
from service.config import ServiceConfig
from service.database import Database
from service.jobs import JobStore, Recovery
from service.storage import DataFolder, private_files
from service.supervisor import Supervisor

log = logging.getLogger("paperlens.service")
EXIT_OK = 0
EXIT_BUSY = 1


def serve(config: ServiceConfig, log_level: str = "info") -> int:
    from settings import SettingsError, SettingsStore

    try:
        settings = SettingsStore().load()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for warning in settings.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    folder = DataFolder(config.data_dir)
    private_files()
    folder.root.mkdir(parents=True, exist_ok=True)
    os.chmod(folder.root, 0o700)  # also a folder an older version made readable to all
    lock = FileLock(str(folder.lock))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        print(f"error: another paperlens-serve is using {folder.root}; stop it, or give this "
              "one its own --data-dir.", file=sys.stderr)
        return EXIT_BUSY
    try:
        folder.prepare()
        database = Database(folder.database)
        database.create()
        store = JobStore(database)
        recovery = resume(folder, store)
        supervisor = Supervisor(config, folder, recovery.epoch)
        supervisor.start()
        try:
            app = create_app(Service(config, folder, store, settings))
            server = uvicorn.Server(uvicorn.Config(
                app, host=config.host, port=config.port, log_level=log_level,
                server_header=False, proxy_headers=False, timeout_graceful_shutdown=5))
            server.run()
        finally:
            supervisor.stop()
        return EXIT_OK if server.started else EXIT_BUSY
    finally:
        lock.release()


def resume(folder: DataFolder, store: JobStore) -> Recovery:
    """What a previous run left: its claims given back, folders of jobs no longer known and
    checkpoints of documents already settled (a stop between a document's end and its
    tidy-up) removed."""
    recovery = store.recover()
    removed = folder.sweep(store.known_ids())
    freed = folder.sweep_checkpoints(store.settled_documents())
    store.release_bytes(freed)
    if recovery.pages_released or recovery.documents_released or removed or freed:
        log.info("resumed: %d page(s) and %d document(s) of the previous run will be done "
                 "again; %d leftover folder(s) removed, spent checkpoints of %d job(s) removed",
                 recovery.pages_released, recovery.documents_released, len(removed),
                 len(freed))
    return recovery
