"""The transport: how the site talks to the outside (websockets and their consumers, the
channel layer and what it carries, the TCP door), above the services it calls."""
