"""Meaning: paper embeddings, researcher topics, and the searches that use them."""
