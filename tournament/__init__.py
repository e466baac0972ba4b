"""Tournament play: tables publish their public games to an MQTT broker, referees watch them.

The package serves every game and depends on ``companion`` only (the core never imports it).
``docs/tournament.md`` is the contract: topics, payloads, accounts and what each may do.
"""
