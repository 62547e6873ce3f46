"""The virtual table: simulated players moving tagged tiles on virtual reader boards."""
