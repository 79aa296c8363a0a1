-- Version 6: the admin console pages through the decision log newest first by keyset
-- (`seq < cursor ORDER BY seq DESC`): an index scan at any depth, not a sort of every row.
CREATE INDEX decisions_pages ON decisions (seq DESC);
