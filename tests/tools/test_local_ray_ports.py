"""The local Ray cluster's port choice: a port handed to one node is never handed again, even
after the socket that found it free was closed (Ray refuses a node whose ports clash)."""

from __future__ import annotations

import socket

from tools.local_ray import free_port_range, free_ports


def test_ports_already_handed_out_are_not_chosen_again():
    taken = frozenset(free_ports(8))
    for _ in range(20):
        chosen = free_ports(6, taken)
        assert len(set(chosen)) == 6 and not taken.intersection(chosen)


def test_a_worker_range_avoids_ports_already_handed_out():
    # Hold a port, let the range search start right below it, and see it step over it.
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    try:
        port = held.getsockname()[1]
        taken = frozenset({port + 3})
        for _ in range(20):
            start = free_port_range(24, taken)
            assert not taken.intersection(range(start, start + 24))
            assert port not in range(start, start + 24)
    finally:
        held.close()
