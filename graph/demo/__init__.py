"""A deterministic synthetic scholarly corpus for demos, tests and identity-resolution runs."""

from scholargraph.graph.demo.generator import DemoCorpus, generate

__all__ = ["DemoCorpus", "generate"]
