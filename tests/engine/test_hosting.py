"""Every host offers the whole Converter protocol, and every typed error goes through every
host of the engine on this machine and back as the same type: the codec alone, the engine in
this process (the service's workers' converter), and the desktop app's child process, both
converting a document and reading a page. Ray's hosts: tests/cluster/test_cluster_hosting.py."""

from __future__ import annotations

import pickle
import threading

import cv2
import numpy as np
import pytest

from engine.hosting import (HostError, LocalConverter, RemoteError, cancel_check,
                            decode_error, encode_error, error_types)
from engine.errors import Cancelled, PaperlensError
from tests.conftest import load_isolated_settings
from tests.hosting_samples import (FailingEngine, WaitingEngine, error_kinds, make_error,
                                   protocol_gaps, same_error)


def test_the_hosts_offer_the_whole_converter_protocol():
    from engine.cluster.converter import ClusterConverter
    from service.converter import LocalPageConverter

    for host in (LocalConverter, LocalPageConverter, ClusterConverter):
        assert protocol_gaps(host) == [], host


@pytest.mark.gui
def test_the_desktop_apps_child_process_offers_the_whole_converter_protocol():
    from gui.engine_process import EngineProcess

    assert protocol_gaps(EngineProcess) == []


def test_the_codec_knows_every_typed_error_the_engine_declares():
    import engine.errors
    from engine.runtime.install import OnnxRuntimeInstallConflict
    from engine.formats import ExportFailed

    declared = {value for value in vars(engine.errors).values()
                if isinstance(value, type) and issubclass(value, PaperlensError)}
    assert declared | {ExportFailed, OnnxRuntimeInstallConflict} <= set(error_types().values())


@pytest.mark.parametrize("kind", error_kinds())
def test_an_error_as_plain_data_is_the_same_error_again(kind):
    sent = make_error(kind)
    remote = pickle.loads(pickle.dumps(encode_error(sent)))
    assert isinstance(remote, RemoteError) and remote.kind == getattr(sent, "kind", kind)
    assert same_error(decode_error(remote), sent)


def test_an_error_of_no_declared_type_comes_back_as_a_host_error_with_its_name():
    got = decode_error(encode_error(KeyError("x")))
    assert type(got) is HostError and (got.kind, got.message) == ("KeyError", "KeyError: 'x'")


def test_one_cancel_path_stops_before_the_next_stage():
    cancel = threading.Event()
    check = cancel_check(cancel)
    check()
    cancel.set()
    with pytest.raises(Cancelled):
        check()


@pytest.fixture(scope="module")
def settings(tmp_path_factory):
    return load_isolated_settings(tmp_path_factory.mktemp("hosting-settings"))


def page_named(folder, kind: str):
    """A small page named for the error it stands for, its bytes its own (a worker knows a
    document by its digest)."""
    path = folder / f"{kind}.png"
    page = np.full((40, 400, 3), 255, dtype=np.uint8)
    cv2.putText(page, kind, (4, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 1)
    cv2.imwrite(str(path), page)
    return path


def test_every_typed_error_read_from_a_page_by_the_service_workers_converter(settings,
                                                                             tmp_path):
    from service.converter import LocalPageConverter

    converter = LocalPageConverter(settings, engine=FailingEngine(settings))
    try:
        for kind in error_kinds():
            sent = make_error(kind)
            with pytest.raises(PaperlensError) as raised:
                converter.read_page(page_named(tmp_path, kind), 1, None, kind,
                                    lambda _stage: None, threading.Event())
            assert same_error(raised.value, sent), kind
    finally:
        converter.close()


def test_every_typed_error_converting_in_this_process(tmp_path):
    converter = LocalConverter(FailingEngine())
    for kind in error_kinds():
        with pytest.raises(PaperlensError) as raised:
            converter.convert(tmp_path / f"{kind}.pdf", None)
        assert same_error(raised.value, make_error(kind)), kind


@pytest.mark.gui
def test_every_typed_error_converting_in_the_desktop_apps_child_process(settings, tmp_path):
    _every_error_through_one_child(settings, lambda host, kind: host.convert(
        tmp_path / f"{kind}.pdf", None))


@pytest.mark.gui
def test_every_typed_error_reading_a_page_in_the_desktop_apps_child_process(settings, tmp_path):
    _every_error_through_one_child(settings, lambda host, kind: host.read_page(
        page_named(tmp_path, kind), 1, None, kind, lambda _stage: None, threading.Event()))


def _every_error_through_one_child(settings, call) -> None:
    """Every typed error, and an untyped bug, raised in one child process by `call(host,
    kind)`, comes back as itself (the bug as a HostError naming it)."""
    from gui.engine_process import EngineProcess

    host = EngineProcess(settings, make_engine=FailingEngine)
    try:
        for kind in [*error_kinds(), "KeyError"]:
            sent = make_error(kind)
            expected = HostError("KeyError: 'x'", "KeyError") if kind == "KeyError" else sent
            with pytest.raises(PaperlensError) as raised:
                call(host, kind)
            assert same_error(raised.value, expected), kind
        assert host.pid is not None  # one child answered them all
    finally:
        host.close()


@pytest.mark.gui
def test_a_page_read_in_the_child_process_is_cancelled_after_the_stage_it_was_at(settings,
                                                                                   tmp_path):
    from gui.engine_process import EngineProcess

    host = EngineProcess(settings, make_engine=WaitingEngine)
    cancel = threading.Event()
    heard: list[str] = []

    def on_stage(stage: str) -> None:
        heard.append(stage)
        cancel.set()  # the window's cancel, while the child reads the page

    try:
        with pytest.raises(Cancelled):
            host.read_page(page_named(tmp_path, "page"), 1, None, "page", on_stage, cancel)
        assert heard == ["render"]
        pid = host.pid
        with pytest.raises(PaperlensError) as raised:  # the same child answers the next one
            host.convert(tmp_path / "WrongPassword.pdf", None)
        assert same_error(raised.value, make_error("WrongPassword")) and host.pid == pid
    finally:
        host.close()
