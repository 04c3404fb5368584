"""Figure models: one module per figure, each a pure seeded function from parameters to JSON-able data."""
