"""E-mail at publication: CPU, queries and SMTP connections per pairing e-mail.

Publishes one evening of a 60-player season (SQLite in a temporary folder, the test
settings) and sends its outbox to a local SMTP sink (a tiny SMTP server on 127.0.0.1 in a
process of its own, so its CPU is not counted): first with the one-row-at-a-time delivery
this project had before the outbox module (``pairing/notices.py`` as of commit 87ca690,
read from git: a connection, a claim, a game query and a mark per message), then with
``core.mail``'s batched delivery. The rows are set back to "to be sent" between rounds.
Both render today's templates (the old code leaves the evening's date, formatted once
per batch now, empty: if anything that flatters the "before" figure).
Prints, for each, CPU milliseconds per message (this process only), queries per message
and connections opened; asserts nothing. Nothing leaves 127.0.0.1.

Run: .venv/bin/python bench/bench_mail.py   (also part of ``make bench``)
Environment: BENCH_PLAYERS (60), BENCH_ROUNDS (5), BENCH_PROFILE=cumulative|tottime (a
profile of one delivery after the figures).
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import socket
import socketserver
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = int(os.environ.get("BENCH_PLAYERS", "60"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
BEFORE = "87ca690"  # the last commit before core.mail


class _Sink(socketserver.StreamRequestHandler):
    """Just enough SMTP for smtplib: every message is accepted and forgotten."""

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.server.connections.value += 1  # type: ignore[attr-defined]
        self.reply("220 sink ESMTP")
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line[:4].upper()
            if verb == b"EHLO":
                self.wfile.write(b"250-sink\r\n250 8BITMIME\r\n")
            elif verb == b"DATA":
                self.reply("354 go on")
                while self.rfile.readline() not in (b".\r\n", b""):
                    pass
                self.server.messages.value += 1  # type: ignore[attr-defined]
                self.reply("250 queued")
            elif verb == b"QUIT":
                self.reply("221 bye")
                return
            else:  # HELO, MAIL, RCPT, RSET, NOOP
                self.reply("250 ok")


def _serve(port, connections, messages) -> None:
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    with socketserver.ThreadingTCPServer(("127.0.0.1", port), _Sink) as server:
        server.connections, server.messages = connections, messages  # type: ignore[attr-defined]
        server.serve_forever()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _old_notices():
    """The delivery of the pairing e-mails before this module, from git."""
    source = subprocess.run(["git", "show", f"{BEFORE}:pairing/notices.py"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    spec = importlib.util.spec_from_loader("pairing.notices_before", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "pairing"
    exec(compile(source, "pairing/notices.py@" + BEFORE, "exec"), module.__dict__)
    return module


def main() -> int:
    port = _free_port()
    ctx = multiprocessing.get_context("spawn")
    connections, messages = ctx.Value("i", 0), ctx.Value("i", 0)
    sink = ctx.Process(target=_serve, args=(port, connections, messages),
                       daemon=True)
    sink.start()
    folder = tempfile.mkdtemp(prefix="ranglijst-bench-mail-")
    os.environ["RANGLIJST_VAR_DIR"] = folder
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.test_settings"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import core.jobs
    from pairing import notices
    from pairing.models import PairingNotice
    from pairing.services import evening_pair_and_publish
    from tests import factories as f

    call_command("migrate", verbosity=0)
    core.jobs.enqueue = lambda *args: True  # the bench sends the outbox itself
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    for _ in range(100):  # the sink is up
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    connections.value = 0

    season = f.season(players=PLAYERS)
    evening = f.playing_evenings(season)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    rows = PairingNotice.objects.filter(evening=evening)
    count = rows.count()
    print(f"one evening of {PLAYERS} players: {count} pairing e-mails, {ROUNDS} rounds each, "
          f"SMTP sink on 127.0.0.1:{port}")

    def run(label: str, deliver) -> None:
        cpu = queries = 0.0
        before_conn, before_msg = connections.value, messages.value
        for _ in range(ROUNDS):
            rows.update(state="pending", claimed_at=None, sent_at=None)
            with CaptureQueriesContext(connection) as captured:
                start = time.process_time()
                sent = deliver(evening.pk)
                cpu += time.process_time() - start
            assert sent == count, (label, sent, count)
            queries += len(captured)
        time.sleep(0.2)  # the sink counts the last QUIT
        n = ROUNDS * count
        print(f"  {label:<34} {1000 * cpu / n:6.2f} ms CPU/message  "
              f"{queries / n:5.2f} queries/message  "
              f"{(connections.value - before_conn) / ROUNDS:5.1f} connections/evening  "
              f"({messages.value - before_msg} messages received)")

    run(f"before (one at a time, {BEFORE})", _old_notices().deliver)
    run("core.mail (claimed batches)", notices.deliver)
    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import pstats

        rows.update(state="pending", claimed_at=None, sent_at=None)
        profile = cProfile.Profile()
        profile.runcall(notices.deliver, evening.pk)
        pstats.Stats(profile).sort_stats(os.environ.get("BENCH_PROFILE")).print_stats(30)
    sink.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
