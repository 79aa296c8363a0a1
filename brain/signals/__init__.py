"""The five routing signals of seed 000 (keyword, semantic, knowledge, session, memory).

Each module turns one source of evidence into a 0..1 score per controller, as numpy arrays in
the registry's order; `combine` weights them into the raw total.
"""
