"""The routing signals: each scores every controller 0..1 for one message.

Built-ins: keyword (30%), semantic (30%), knowledge base (20%), session (10%), memory (10%).
A new signal is one `brain.signals.base.Signal` subclass, registered under the `brain.signals`
entry point group of its distribution, plus its weight in the configuration
(`[routing.weights] <name> = 0.05`, with the others lowered so that all still sum to 1). The
decision chain, the calibration features, the rationale and `brain why` read the registry
(`brain.signals.registry`), so nothing else changes.
"""
