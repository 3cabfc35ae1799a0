-- Long-term memory and profile of each user, by key: loaded into the agent's state at the start of a turn,
-- written by the remember tool.
CREATE TABLE conduit_user_memory (
    user_id    text        NOT NULL,
    key        text        NOT NULL,
    value      text        NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key)
);
