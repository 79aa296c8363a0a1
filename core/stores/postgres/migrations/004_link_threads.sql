-- Version 4: find the bot's messages of a Slack thread without a scan, for the replica that
-- did not post them (a reaction or a click on another replica's reply).
CREATE INDEX records_link_threads ON records ((doc ->> 'channel'), (doc ->> 'thread_ts'))
    WHERE collection = 'slack/messages';
