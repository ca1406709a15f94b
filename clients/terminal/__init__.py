"""The console game: the board drawn with rows A.. and columns 1.., hidden pieces X,
moves typed as coordinates, QQ to quit and save (docs/terminal.md)."""
