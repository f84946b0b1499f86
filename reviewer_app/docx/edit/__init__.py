"""The edit engine: contract batches applied as tracked changes and comments."""
