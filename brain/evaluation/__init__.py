"""`brain eval`: routing quality of the full decision chain on labelled files.

Public surface: `run` (the evaluation), `metrics` (what it reports), `controllers` (controllers
built from labelled rows).
"""
