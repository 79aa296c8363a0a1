"""The dynamic tier (docs/design.md, "How a decision is made", step 4): what the brain
does with a message no controller clearly takes.

- `loop.DynamicSolver`: Draft (`draft`) - Critique (`critique`) - Refine (`refine`), at most
  three rounds, then the fallback ladder (`ladder`); every round is kept in `Decision.dcr`;
- `attend.attend`: the one call the decision chain makes into this package;
- `cases.CaseBook`: unknown cases, their plans and confirmations (a `CaseStore`);
- `evolution`: Type A consolidation, repeated confirmed cases become evolved controllers;
- `llm_stages`: optional LLM drafting and critique, validated, never deciding alone.
"""
