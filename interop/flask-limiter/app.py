"""The smallest Flask app behind Flask-Limiter (Debian's python3-flask-limiter).

GET /limited is limited to RL_LIMIT per RL_WINDOW seconds per client, keyed by
X-User-ID or else the client address; the strategy is STRATEGY; headers are
on. Nothing here touches a status, header or body the limiter produces.
"""
import os

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address


def key():
    return request.headers.get("X-User-ID") or get_remote_address()


app = Flask(__name__)
limiter = Limiter(
    key,
    app=app,
    strategy=os.environ["STRATEGY"],
    headers_enabled=True,
    storage_uri="memory://",
)
window = int(os.environ["RL_WINDOW"].rstrip("s"))


@app.route("/limited")
@limiter.limit(f"{os.environ['RL_LIMIT']} per {window} seconds")
def limited():
    return "ok\n"


@app.route("/healthz")
@limiter.exempt
def healthz():
    return "ok\n"


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ["PORT"]), threaded=True)
