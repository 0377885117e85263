"""Read-side repositories: plain async functions over :class:`graph.db.Database` that return
dataclasses. Most take many ids at once and answer with one statement, so a caller that
batches (the API's DataLoaders) makes one round-trip per kind of question, however many
entities a request names."""
