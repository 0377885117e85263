"""Titles and abstracts that read like the field they come from.

Titles keep the quirks loaders meet in real metadata: TeX (``$\\mathcal{N}=4$``), ``&`` and ``<``
that need escaping in XML, and long titles wrapped over several lines in OAI-PMH.
"""

from __future__ import annotations

from random import Random

# field key → (topics, methods, objects)
_VOCABULARY: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "machine-learning": (
        (
            "image classification",
            "machine translation",
            "language modelling",
            "reinforcement learning",
            "few-shot learning",
            "object detection",
            "graph representation learning",
            "speech recognition",
            "federated learning",
            "continual learning",
        ),
        (
            "transformers",
            "diffusion models",
            "contrastive pretraining",
            "graph neural networks",
            "mixture of experts",
            "knowledge distillation",
            "low-rank adaptation",
            "self-supervised learning",
        ),
        ("foundation models", "vision transformers", "large language models", "neural networks"),
    ),
    "systems": (
        (
            "distributed training",
            "serverless computing",
            "key-value stores",
            "software testing",
            "intrusion detection",
            "query optimisation",
            "network congestion control",
            "memory safety",
        ),
        ("tensor parallelism", "static analysis", "fuzzing", "consensus protocols", "caching"),
        ("data centres", "GPU clusters", "smart contracts", "compilers", "edge devices"),
    ),
    "theory-cs": (
        ("approximation algorithms", "graph isomorphism", "online matching", "mechanism design"),
        ("LP relaxations", "the sum-of-squares hierarchy", "streaming algorithms", "sketching"),
        ("planar graphs", "Boolean circuits", "automata", "$k$-SAT", "submodular functions"),
    ),
    "hep-theory": (
        ("holography", "black hole entropy", "scattering amplitudes", "string compactifications"),
        ("the conformal bootstrap", "supersymmetric localization", "AdS/CFT", "modular invariance"),
        (
            "$\\mathcal{N}=4$ super Yang-Mills theory",
            "$AdS_5$ black holes",
            "Calabi-Yau threefolds",
        ),
    ),
    "hep-phenomenology": (
        ("dark matter", "neutrino masses", "flavour anomalies", "the Higgs sector", "QCD jets"),
        ("effective field theory", "lattice QCD", "next-to-leading order corrections"),
        ("axion-like particles", "leptoquarks", "heavy quarkonia", "$B \\to K^* \\mu\\mu$ decays"),
    ),
    "hep-experiment": (
        ("a search for new resonances", "the top quark mass", "rare kaon decays", "CP violation"),
        ("proton-proton collisions at $\\sqrt{s} = 13$ TeV", "a silicon tracker", "calorimetry"),
        ("the Higgs boson", "$W$ and $Z$ bosons", "charmed baryons", "heavy-ion collisions"),
    ),
    "astrophysics": (
        ("galaxy formation", "the Hubble tension", "exoplanet atmospheres", "fast radio bursts"),
        ("weak lensing", "radial velocity surveys", "hydrodynamical simulations", "spectroscopy"),
        ("active galactic nuclei", "white dwarfs", "protoplanetary discs", "galaxy clusters"),
    ),
    "condensed-matter": (
        ("topological superconductivity", "quantum spin liquids", "twisted bilayer graphene"),
        ("density functional theory", "tensor networks", "ARPES", "Monte Carlo simulations"),
        ("moiré materials", "Kitaev magnets", "$\\mathrm{MoS}_2$ monolayers", "glasses"),
    ),
    "quantum": (
        ("quantum error correction", "entanglement detection", "quantum key distribution"),
        ("variational circuits", "randomized benchmarking", "cavity QED", "measurement feedback"),
        ("superconducting qubits", "trapped ions", "photonic chips", "Rydberg arrays"),
    ),
    "pure-mathematics": (
        ("the Langlands programme", "moduli spaces", "Ramsey numbers", "knot invariants"),
        ("derived categories", "the circle method", "spectral sequences", "probabilistic methods"),
        ("$p$-adic $L$-functions", "Hilbert schemes", "Coxeter groups", "hyperbolic 3-manifolds"),
    ),
    "analysis-probability": (
        ("well-posedness", "random matrices", "optimal transport", "mean-field games"),
        ("energy estimates", "martingale methods", "finite element methods", "Stein's method"),
        ("the Navier-Stokes equations", "Brownian motion", "Schrödinger operators", "SLE"),
    ),
    "statistics": (
        (
            "causal inference",
            "high-dimensional regression",
            "multiple testing",
            "survival analysis",
        ),
        ("the bootstrap", "Bayesian nonparametrics", "conformal prediction", "empirical Bayes"),
        ("sparse covariance matrices", "clinical trials", "time series", "mixed models"),
    ),
    "quantitative-biology": (
        ("protein folding", "neural coding", "epidemic spreading", "gene regulation"),
        ("single-cell sequencing", "agent-based models", "Bayesian phylogenetics"),
        ("cortical circuits", "microbial communities", "tumour growth", "ion channels"),
    ),
    "quantitative-finance": (
        ("option pricing", "portfolio selection", "systemic risk", "market microstructure"),
        ("rough volatility", "deep hedging", "stochastic control", "copulas"),
        ("limit order books", "credit derivatives", "cryptocurrency markets"),
    ),
    "economics": (
        ("labour markets", "auction design", "inflation expectations", "matching markets"),
        ("difference-in-differences", "instrumental variables", "structural estimation"),
        ("minimum wages", "school choice", "trade networks", "platform markets"),
    ),
    "signals-systems": (
        ("channel estimation", "speech enhancement", "image denoising", "power grid stability"),
        ("compressed sensing", "model predictive control", "beamforming", "polar codes"),
        ("massive MIMO", "MRI reconstruction", "microgrids", "reconfigurable surfaces"),
    ),
    "general-physics": (
        ("turbulence", "pattern formation", "opinion dynamics", "plasma instabilities"),
        ("lattice Boltzmann methods", "network analysis", "molecular dynamics", "integrability"),
        ("soliton solutions", "drop impact", "urban mobility", "tokamak edges", "chaotic maps"),
    ),
}

_ADJECTIVES = (
    "Adaptive",
    "Scalable",
    "Robust",
    "Efficient",
    "Exact",
    "Universal",
    "Sharp",
    "Nonlinear",
    "Hierarchical",
    "Sparse",
    "Unified",
    "Emergent",
)
_CLAIMS = (
    "the proposed approach improves on the state of the art",
    "the bound is tight up to constant factors",
    "the effect persists across a wide range of parameters",
    "earlier estimates were biased by selection effects",
    "a simple criterion separates the two regimes",
    "the construction extends to the general case",
)
_SETTINGS = (
    "the low-data regime",
    "the strong-coupling limit",
    "realistic conditions",
    "the large-$N$ limit",
    "heterogeneous settings",
    "the presence of noise",
)


def _acronym(rng: Random) -> str:
    letters = "ABCDEFGHIKLMNOPRSTUVW"
    return "".join(rng.choice(letters) for _ in range(rng.randint(3, 5)))


def title(rng: Random, field_key: str) -> str:
    topics, methods, objects = _VOCABULARY[field_key]
    topic, method, obj = rng.choice(topics), rng.choice(methods), rng.choice(objects)
    adjective = rng.choice(_ADJECTIVES)
    form = rng.randrange(7)
    if form == 0:
        return f"{method[0].upper()}{method[1:]} for {topic}"
    if form == 1:
        return f"On {topic} in {obj}"
    if form == 2:
        return f"{_acronym(rng)}: {adjective} {method} for {topic}"
    if form == 3:
        return f"{adjective} {method} and {topic} in {obj} & beyond"
    if form == 4:
        return f"Towards {adjective.lower()} {topic} with {method}"
    if form == 5:
        return (
            f"{topic[0].upper()}{topic[1:]} of {obj}: the regime $x<1$ and {rng.choice(_SETTINGS)}"
        )
    return f"{adjective} {topic} with {method} in {rng.choice(_SETTINGS)}"


def abstract(rng: Random, field_key: str) -> str:
    topics, methods, objects = _VOCABULARY[field_key]
    sentences = [
        f"We study {rng.choice(topics)} in {rng.choice(objects)}.",
        f"Using {rng.choice(methods)}, we show that {rng.choice(_CLAIMS)}.",
    ]
    for _ in range(rng.randint(1, 3)):
        sentences.append(
            f"In {rng.choice(_SETTINGS)}, {rng.choice(methods)} applied to {rng.choice(objects)} "
            f"shows that {rng.choice(_CLAIMS)}."
        )
    sentences.append(f"Our results shed light on {rng.choice(topics)}.")
    return " ".join(sentences)


def wrap(text: str, width: int = 78, indent: str = "  ") -> str:
    """Break text into lines the way arXiv's OAI-PMH feed does (continuations indented)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return f"\n{indent}".join(lines)
