"""`python -m games.client`: the bot client's command line, kept where the documentation
gives it. The program is clients/bot/."""
