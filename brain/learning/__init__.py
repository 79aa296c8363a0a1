"""Learning from people: feedback, the AUDNP ring, organisation lessons and training rows.

Public surface: `feedback` (the one feedback API), `ring` (Assess, Update, Detect, Notify,
Persist), `org_lessons` / `org_training` (agreement as training), `training` and `labelled`
(labelled rows), `control` (show, conflicts, forget).
"""
