"""One router per resource: health, table, hands, seats, admin, WebSocket push, pages."""
