"""The semantic routing model: how well a message matches each controller's responsibilities.

Public surface: `scorer` (`SemanticScorer`: fit, load, score, out-of-scope) and `npz` (the model's
file format).
"""
