"""Programs that play on a server from outside it, using the engine and the computer players
(games/engine, games/bots) but nothing of the server: the bot client and the terminal game."""
