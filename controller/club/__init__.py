"""The club layer: tables publish over an MQTT broker (``publisher``, table side), the club
service subscribes, keeps its own SQLite and serves the club page (``service``, ``app``)."""
