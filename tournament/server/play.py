"""The casual tables' pages and websocket: the lobby (``/play``), a table's page
(``/tables/ID``), its websocket (``/tables/ID/ws``) and, once over, its replay.

A person needs no account: a cookie holds a random id that keeps their seat across reloads. The
form that makes a table carries a token tied to that cookie (a forged form from another site
has none), and a table's websocket refuses a page from another origin. Every message a browser
sends is checked; one that cannot be taken gets one error and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import html
import json
import secrets
import urllib.parse
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.requests import HTTPConnection, Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.websockets import WebSocket, WebSocketDisconnect

from tournament.server.groups import POOLS
from tournament.server.pages import replay_page
from tournament.server.store import CasualGame, Store
from tournament.server.table_views import seat_view
from tournament.server.tables import LARGEST_NAME, ActionRefused, Table, Tables

__all__ = [
    "PERSON_COOKIE",
    "lobby_page",
    "make_table",
    "page_script",
    "table_connection",
    "table_data",
    "table_page",
    "table_replay",
]

PERSON_COOKIE = "thousand_person"
LARGEST_MESSAGE = 2000
LARGEST_FORM = 16000
STATIC = Path(__file__).parent / "static"

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1em auto; max-width: 48em; padding: 0 1em;
  font-size: 1.1rem; line-height: 1.4; }
button, select, input { font-size: 1rem; padding: 0.4em 0.7em; margin: 0.2em; }
.actions { display: flex; flex-wrap: wrap; gap: 0.3em; margin: 1em 0; }
.actions button { min-width: 6em; }
.table p { margin: 0.3em 0; overflow-wrap: anywhere; }
#errors { color: #a00; min-height: 1.4em; }
.seats li, .empty li { margin: 0.2em 0; }
.card { display: inline-block; min-width: 1.6em; padding: 0 0.25em; margin: 0.1em;
  border: 1px solid #888; border-radius: 0.25em; background: #fff; color: #111;
  font-weight: 600; text-align: center; }
.card.red { color: #c00; }
.clock { font-weight: 600; }
"""


def _page(title: str, body: str) -> str:
    return (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        "<link rel=icon href='data:,'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style><body>{body}</body></html>"
    )


def _person(request: HTTPConnection) -> tuple[str, bool]:
    """The person's id from their cookie, and whether it is new (to be set)."""
    known = request.cookies.get(PERSON_COOKIE, "")
    if len(known) == 32 and all(c in "0123456789abcdef" for c in known):
        return known, False
    return secrets.token_hex(16), True


def _with_cookie(response: Response, person: str, new: bool) -> Response:
    if new:
        response.set_cookie(PERSON_COOKIE, person, httponly=True, samesite="lax", max_age=2**25)
    return response


def _form_token(request: Request, person: str) -> str:
    """The token a form of this person carries: a keyed hash of their id."""
    key: bytes = request.state.form_key
    return hmac.new(key, person.encode(), hashlib.sha256).hexdigest()


async def lobby_page(request: Request) -> Response:
    """``GET /play``: the open tables, and a form to make one."""
    tables: Tables = request.state.tables
    person, new = _person(request)
    rows = "".join(
        f"<li><a href='/tables/{table.id}'>{html.escape(_describe(table))}</a></li>"
        for table in tables.tables.values()
        if table.status != "over"
    )
    presets = "".join(f"<option>{name}</option>" for name in POOLS)
    body = (
        "<h1>Play</h1><h2>Open tables</h2>"
        + (f"<ul>{rows}</ul>" if rows else "<p>No table is open: make one.</p>")
        + "<h2>A new table</h2><form method=post action=/play>"
        f"<input type=hidden name=token value={_form_token(request, person)}>"
        f"<label>Game <select name=game>{presets}</select></label> "
        "<label>Seconds per move <input name=seconds type=number min=5 max=600 value=60></label> "
        "<details><summary>Own rules</summary><p><label>The game's rules fields as JSON, as a "
        'rules file holds them, such as <code>{"bolts": 3, "barrel": true}</code> or, for '
        '1000?, <code>{"players": 3}</code><br><textarea name=rules rows=4 cols=40>'
        "</textarea></label></p><p><label>or a rules file <input type=file id=rules-file "
        "accept='.json,application/json'></label></p></details> "
        "<button>Make the table</button></form><script src=/static/lobby.js></script>"
    )
    return _with_cookie(HTMLResponse(_page("Play Thousand", body)), person, new)


def _describe(table: Table) -> str:
    taken = sum(seat is not None for seat in table.seats)
    seats = f"{taken} of {len(table.seats)} seats"
    return f"{table.preset}: {', '.join(table.names())} ({seats}, {table.status})"


async def make_table(request: Request) -> Response:
    """``POST /play``: make a table, then go to it."""
    tables: Tables = request.state.tables
    person, _ = _person(request)
    body = await request.body()
    if len(body) > LARGEST_FORM:
        return HTMLResponse(_page("Refused", "<p>This form is too long.</p>"), 413)
    form = {key: values[0] for key, values in urllib.parse.parse_qs(body.decode()).items()}
    token = form.get("token", "")
    if not hmac.compare_digest(token, _form_token(request, person)):
        return HTMLResponse(_page("Refused", "<p>This form is stale: open /play again.</p>"), 403)
    try:
        seconds = float(form.get("seconds", "60"))
        table = tables.create(form.get("game", ""), seconds, form.get("rules", ""))
    except ValueError as error:
        return HTMLResponse(_page("Refused", f"<p>{html.escape(str(error))}</p>"), 400)
    return RedirectResponse(f"/tables/{table.id}", status_code=303)


async def _kept(request: HTTPConnection) -> CasualGame | None:
    """The kept game of a finished table that is no longer in memory, if any."""
    store: Store = request.state.store
    table_id = str(request.path_params["table_id"])[:16]
    return await anyio.to_thread.run_sync(store.casual_game, table_id)


def _table(request: HTTPConnection) -> Table | None:
    tables: Tables = request.state.tables
    return tables.tables.get(str(request.path_params["table_id"]))


async def table_page(request: Request) -> Response:
    """``GET /tables/ID``: the table as this person's seat (or a spectator) sees it now."""
    table = _table(request)
    if table is None:
        kept = await _kept(request)
        if kept is None:
            return HTMLResponse(_page("No such table", "<p>No table has this address.</p>"), 404)
        rows = "".join(
            f"<li>{html.escape(name)}: {score}</li>"
            for name, score in zip(kept.seats, kept.scores, strict=True)
        )
        body = (
            f"<p><a href=/play>All tables</a></p><h2>{html.escape(kept.rules)}</h2>"
            f"<p>The game is over.</p><ol class=result>{rows}</ol>"
            f"<p><a href='/tables/{kept.table_id}/replay'>Replay the game, every card shown</a>"
        )
        return HTMLResponse(_page("Table", body))
    person, new = _person(request)
    seat = table.seat_of(person)
    body = (
        "<p><a href=/play>All tables</a></p>"
        f"<p><label>Your name <input id=name maxlength={LARGEST_NAME} autocomplete=nickname>"
        "</label></p>"
        f"{seat_view(table, seat)}<p id=errors role=alert></p>"
        "<script src=/static/table.js></script>"
    )
    return _with_cookie(HTMLResponse(_page("Table", body)), person, new)


async def table_replay(request: Request) -> Response:
    """``GET /tables/ID/replay``: a finished table's game, step by step, every card shown."""
    from thousand.frontends.html_replay import html_page

    table = _table(request)
    if table is not None and table.outcome is not None:
        return HTMLResponse(html_page(table.outcome.record, table.names(), "A table's game"))
    kept = await _kept(request) if table is None else None
    if kept is None:
        return HTMLResponse(_page("No replay", "<p>The game is not over yet.</p>"), 404)
    return HTMLResponse(replay_page(kept.record, kept.seats, "A table's game"))


async def table_data(request: Request) -> Response:
    """``GET /api/tables/ID``: a table's seats and status; once it is over, its scores and its
    record, as ``thousand replay`` reads it."""
    table = _table(request)
    if table is None:
        kept = await _kept(request)
        if kept is None:
            return JSONResponse({"error": "no table has this address"}, status_code=404)
        return JSONResponse(
            {
                "id": kept.table_id,
                "preset": kept.rules,
                "status": "over",
                "seats": list(kept.seats),
                "scores": list(kept.scores),
                "record": kept.record,
            }
        )
    data: dict[str, Any] = {"id": table.id, "preset": table.preset, "status": table.status}
    data["seats"] = table.names()
    if table.outcome is not None:
        data["scores"] = list(table.outcome.scores)
        data["record"] = table.outcome.record.to_dict()
    return JSONResponse(data)


SCRIPTS = ("table.js", "lobby.js")
"""The pages' scripts, served by the package."""


async def page_script(request: Request) -> Response:
    """``GET /static/NAME.js``: one of the pages' scripts."""
    name = str(request.path_params["name"])
    if name not in SCRIPTS:
        return HTMLResponse(_page("No such file", "<p>No such file.</p>"), 404)
    return FileResponse(STATIC / name, media_type="text/javascript")


def _same_origin(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host")
    return origin is not None and host is not None and origin.split("://", 1)[-1] == host


async def table_connection(websocket: WebSocket) -> None:
    """``/tables/ID/ws``: a browser at a table. It is sent its view whenever the table changes,
    and sends what the person does: take a seat, give one to a bot, play a move."""
    tables: Tables = websocket.state.tables
    table = _table(websocket)
    if table is None or not _same_origin(websocket):
        await websocket.close()  # before the handshake: HTTP 403
        return
    person, _ = _person(websocket)
    await websocket.accept()
    changed = asyncio.Event()
    latest = [seat_view(table, table.seat_of(person))]

    def listener(now: Table) -> None:
        latest[0] = seat_view(now, now.seat_of(person))
        changed.set()

    table.listeners.append(listener)
    tables.back(table, person)

    async def push() -> None:
        while True:
            await websocket.send_text(json.dumps({"type": "view", "html": latest[0]}))
            await changed.wait()
            changed.clear()

    pushing = asyncio.ensure_future(push())
    try:
        while True:
            text = await websocket.receive_text()
            refusal = _handle(tables, table, person, text)
            if refusal is not None:
                await websocket.send_text(json.dumps({"type": "error", "message": refusal}))
    except WebSocketDisconnect:
        pass
    finally:
        pushing.cancel()
        with contextlib.suppress(ValueError):
            table.listeners.remove(listener)
        tables.left(table, person)


def _handle(tables: Tables, table: Table, person: str, text: str) -> str | None:
    """Take one message from a browser: ``None``, or why it was refused."""
    if len(text) > LARGEST_MESSAGE:
        return "that message is too long"
    try:
        message: Any = json.loads(text)
    except ValueError:
        return "a message must be JSON"
    if not isinstance(message, dict):
        return "a message must be a JSON object"
    kind, seat = message.get("type"), message.get("seat")
    try:
        if kind == "act":
            version, action = message.get("version"), message.get("action")
            if type(version) is not int or not isinstance(action, str):
                return "a move names the table's version and the action"
            tables.act(table, person, version, action)
        elif kind in ("sit", "bot"):
            if type(seat) is not int:
                return "name the seat by its number"
            if kind == "sit":
                tables.sit(table, seat, person, str(message.get("name", "")))
            else:
                tables.seat_bot(table, seat, str(message.get("level", "")))
        else:
            return "unknown message"
    except ActionRefused as refused:
        return str(refused)
    return None
