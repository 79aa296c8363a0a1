-- Version 1: keyed JSON documents for every kind of state, and the decision log.

CREATE TABLE records (
    collection text NOT NULL,
    key text NOT NULL,
    doc json NOT NULL,
    PRIMARY KEY (collection, key)
);

CREATE TABLE decisions (
    seq bigserial NOT NULL,
    decision_id text PRIMARY KEY,
    user_id text NOT NULL,
    channel text NOT NULL,
    session_key text NOT NULL,
    doc json NOT NULL
);
CREATE INDEX decisions_latest ON decisions (user_id, channel, seq DESC);
CREATE INDEX decisions_session ON decisions (session_key, seq DESC);
