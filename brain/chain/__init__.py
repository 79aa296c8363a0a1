"""The decision chain, one module per step, each with a typed output the next step reads:

1. `understand` (Message -> Understanding): clean text, intent (without the LLM first),
   urgency, entities, identifiers the knowledge base places, and the ongoing work a vague
   message belongs to;
2. `evaluate` (Understanding -> Evaluation): every registered signal for every controller and
   the calibrated confidence of the strongest; below the fast path the LLM votes, then again;
3. `route` (Understanding + Evaluation -> Routing): fast, verify or dynamic tier, dry-runs,
   composition, escalation;
4. `record` (-> Decision): the typed decision with its rationale, logged;
5. `learn` (Decision -> Learning): the memory ring takes what is worth remembering.

`brain.engine.Brain.decide` runs the five in order; `execute` runs the chosen controllers.
"""
