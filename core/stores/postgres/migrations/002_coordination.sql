-- Version 2: what several replicas coordinate through.
-- The Slack event ledger gets its own table, so that a claim is one INSERT ... ON CONFLICT DO
-- NOTHING on the key; the rows version 1 kept as generic documents move there.
CREATE TABLE slack_events (
    key text PRIMARY KEY,
    at double precision NOT NULL
);
CREATE INDEX slack_events_at ON slack_events (at);
INSERT INTO slack_events (key, at)
    SELECT key, COALESCE((doc ->> 'at')::double precision, 0)
    FROM records WHERE collection = 'slack/events'
    ON CONFLICT (key) DO NOTHING;
DELETE FROM records WHERE collection = 'slack/events';

-- Leases: one replica at a time runs a periodic job (re-escalation).
CREATE TABLE leases (
    name text PRIMARY KEY,
    holder text NOT NULL,
    expires_at timestamptz NOT NULL
);

-- A counter per collection, bumped in the same transaction as every write, so a replica
-- notices another one's change (a lesson learnt elsewhere) with one cheap read.
CREATE TABLE changes (
    collection text PRIMARY KEY,
    version bigint NOT NULL
);
INSERT INTO changes (collection, version)
    SELECT collection, 1 FROM records GROUP BY collection;
