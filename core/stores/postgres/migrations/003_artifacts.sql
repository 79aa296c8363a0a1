-- Version 3: fitted models shared by the replicas (fitted once, under an advisory lock, by
-- whichever replica needs one first; loaded by the others). Named by their content key, so a
-- refit after new training data is a new name, never an overwrite.
CREATE TABLE artifacts (
    name text PRIMARY KEY,
    data bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
