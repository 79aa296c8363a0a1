-- Version 5: a claim of a Slack event has an owner (the replica answering it) and a state, so
-- that an event acknowledged by a replica that then died is answered by another one.
-- 'claimed': an answer is owed by `owner` (the event's body kept in `payload` to answer it
-- again); 'sending': the owner is sending the reply (compare-and-set from 'claimed'); if it
-- dies now, a taker first asks Slack whether the reply arrived; 'answered': the reply was
-- sent (the body is dropped). Rows of
-- earlier versions were settled by their single process: they stay 'answered'.
ALTER TABLE slack_events
    ADD COLUMN owner text,
    ADD COLUMN state text NOT NULL DEFAULT 'answered',
    ADD COLUMN payload json;
CREATE INDEX slack_events_open ON slack_events (at) WHERE state <> 'answered';

-- Each replica's heartbeat: a claim whose owner's heartbeat lapsed may be taken over.
CREATE TABLE replicas (
    holder text PRIMARY KEY,
    alive_until timestamptz NOT NULL
);
