"""The open controller set: protocol, registry, declarative and built-in controllers."""
