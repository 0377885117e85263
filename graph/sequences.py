"""Where the public integer ids start (handed out by ``(:Sequence)`` nodes)."""

RESEARCHER_IDS_START = 1_000_000
INSTITUTION_IDS_START = 10_000
