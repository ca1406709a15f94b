"""Programs play on the server: `python -m games.client --server URL --token T --player X`.

Any `Player` of the engine's interface (games/engine/player_interface.py), or a computer level,
plays through the documented websocket protocol (docs/protocol.md) with a bot account's
API token, seeing only its seat's view. See docs/bots.md, "Playing on a server"."""
