"""The harness's process of the local Telegram, as the benches start it: it serves, with its
flood limits as asked, and tells the CPU it used."""

from __future__ import annotations

from pathlib import Path

import httpx

from harness.services import start_local_telegram


def test_the_local_telegram_as_a_process_serves_and_tells_its_cpu(tmp_path: Path) -> None:
    server = start_local_telegram(tmp_path, "--no-limits")
    process = server.process
    try:
        made = server.control.create_bot("bench_helper_bot")
        me = httpx.post(f"{server.bot_api_url}{made['token']}/getMe").json()["result"]
        assert me["username"] == "bench_helper_bot"
        assert server.control.state()["limits"]["enabled"] is False
        assert server.cpu_seconds() > 0
    finally:
        server.stop()
    assert process is not None and process.returncode is not None
